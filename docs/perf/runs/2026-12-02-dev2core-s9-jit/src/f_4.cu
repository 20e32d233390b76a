typedef double gp_real;
extern "C" __device__ gp_real gp_f(const gp_real x) {
  const gp_real v0 = x;
  const gp_real v1 = sin(v0);
  const gp_real v3 = v1 * v1;
  return v3;
}
