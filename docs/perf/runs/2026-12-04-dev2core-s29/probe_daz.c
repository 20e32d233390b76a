#include <gpuprims.h>
#include <stdio.h>
#include <xmmintrin.h>
#include <math.h>
#include <string.h>
#include <stdint.h>
int main(){ gp_context *c; gp_create(&c, GP_BACKEND_CPU);
 float x[100]; for(int i=0;i<100;i++) x[i]=ldexpf(1.0f,-140);  /* subnormal */
 float r; uint64_t ix; gp_reduce(c, GP_SUM, GP_F32, x, 100, &r, GP_REDUCE_AUTO); {unsigned u; memcpy(&u,&r,4); printf("ieee sum bits %08x\n", u);}
 x[57] = ldexpf(3.0f, -140);
 gp_argreduce(c, GP_MAX, GP_F32, x, 100, NULL, &ix); printf("ieee argmax %llu\n", (unsigned long long)ix);
 _mm_setcsr(_mm_getcsr() | 0x8040);
 gp_reduce(c, GP_SUM, GP_F32, x, 100, &r, GP_REDUCE_AUTO); {unsigned u; memcpy(&u,&r,4); printf("daz sum bits %08x\n", u);}
 gp_argreduce(c, GP_MAX, GP_F32, x, 100, NULL, &ix); printf("daz argmax %llu\n", (unsigned long long)ix);
 float y[5000]; for(int i=0;i<5000;i++) y[i]=ldexpf(1.0f,-140); y[4000]=ldexpf(3.0f,-140);
 gp_argreduce(c, GP_MAX, GP_F32, y, 5000, NULL, &ix); printf("daz argmax 5000 %llu\n", (unsigned long long)ix);
 gp_reduce(c, GP_SUM, GP_F32, y, 5000, &r, GP_REDUCE_AUTO); {unsigned u; memcpy(&u,&r,4); printf("daz sum 5000 bits %08x\n", u);}
}
