typedef float gp_real;
extern "C" __device__ gp_real gp_f(const gp_real x) {
  const gp_real v0 = x;
  const gp_real v2 = v0 * v0;
  return v2;
}
