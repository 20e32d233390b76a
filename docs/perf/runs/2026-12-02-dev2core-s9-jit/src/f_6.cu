typedef double gp_real;
extern "C" __device__ gp_real gp_f(const gp_real x) {
  const gp_real v0 = x;
  const gp_real v2 = v0 * v0;
  const gp_real v3 = -v2;
  const gp_real v4 = exp(v3);
  const gp_real v5 = 0x1.8p+1;
  const gp_real v6 = x;
  const gp_real v7 = v5 * v6;
  const gp_real v8 = cos(v7);
  const gp_real v9 = v4 * v8;
  const gp_real v10 = x;
  const gp_real v11 = 0x1p+0;
  const gp_real v12 = v10 + v11;
  const gp_real v13 = sqrt(v12);
  const gp_real v14 = v9 + v13;
  return v14;
}
