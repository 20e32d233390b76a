#include <gpuprims.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(){ gp_context*c; gp_create(&c,GP_BACKEND_CPU);
 for(int d=0;d<2;d++) for(int lg=14;lg<=22;lg+=2){ size_t n=(size_t)1<<lg; double*a=malloc(n*8); srand(3);
  for(size_t i=0;i<n;i++){ double m=rand()/(double)RAND_MAX; a[i]= d? ldexp(m, rand()%1200-600)*(rand()&1?1:-1) : exp(4*(m-0.5))*(rand()&1?1:-1);}
  int N=(int)(2000000/n)+3; double best=1e9,s;
  for(int r=0;r<5;r++){ double t0=now(); for(int i=0;i<N;i++) gp_reduce(c,GP_SUM,GP_F64,a,n,&s,GP_REDUCE_AUTO); double t=now()-t0; if(t<best)best=t;}
  printf("%s 2^%d %.2f us (%.17g)\n",d?"wide-exp":"lognormal",lg,best/N*1e6,s); free(a);}}
