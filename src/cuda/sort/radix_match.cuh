/* rx_match_bit: one step of the radix ranking's warp multi-split (src/cuda/sort/radix.cu;
 * also bench/tools/radix_digits.cu's digit-width trial). */
#ifndef GP_CUDA_SORT_RADIX_MATCH_CUH
#define GP_CUDA_SORT_RADIX_MATCH_CUH

/* The lanes of the warp whose digit equals this lane's: one ballot per digit bit, kept
 * or inverted by this lane's bit, ANDed. __match_any_sync gives the same mask but issues through the MIO pipe at low
 * throughput (ncu at 2^24: 45% of the pass's stalls). Written in PTX so each bit costs
 * four instructions (test, ballot, predicated invert, and); from C++ the compiler tested
 * every bit twice and selected a mask (seven). */
__device__ __forceinline__ unsigned rx_match_bit(unsigned peers, unsigned d, unsigned bit) {
  unsigned r;
  asm("{\n\t.reg .pred p;\n\t.reg .b32 m;\n\t"
      "and.b32 m, %1, %2;\n\t"
      "setp.ne.u32 p, m, 0;\n\t"
      "vote.sync.ballot.b32 m, p, 0xffffffff;\n\t"
      "@!p not.b32 m, m;\n\t"
      "and.b32 %0, %3, m;\n\t}"
      : "=r"(r)
      : "r"(d), "r"(bit), "r"(peers));
  return r;
}

#endif
