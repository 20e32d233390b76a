#include <gpuprims.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(int argc,char**argv){ gp_context*c; gp_create(&c,GP_BACKEND_CPU);
 gp_dtype ts[4]={GP_F32,GP_U32,GP_F64,GP_U64}; const char*nm[4]={"f32","u32","f64","u64"};
 for(int ti=0;ti<4;ti++) for(int lg=22;lg<=24;lg+=2){ size_t n=(size_t)1<<lg; char*a=malloc(n*8),*b=malloc(n*8);
  for(size_t i=0;i<n;i++){ double g=rand()/(double)RAND_MAX-0.5; switch(ti){case 0: ((float*)a)[i]=g; break; case 1: ((unsigned*)a)[i]=rand()*2654435761u; break; case 2: ((double*)a)[i]=g; break; default: ((unsigned long long*)a)[i]=((unsigned long long)rand()<<33)^rand();}}
  double best=1e9; for(int r=0;r<3;r++){double t0=now(); gp_sort_copy(c,ts[ti],a,b,n,0,0); double t=now()-t0; if(t<best)best=t;}
  printf("%s 2^%d %.2f ms %.2f ns/key\n",nm[ti],lg,best*1e3,best/n*1e9); free(a); free(b);}}
