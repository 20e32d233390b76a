#include <gpuprims.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(){ gp_context*c; gp_create(&c,GP_BACKEND_CPU);
 for(int lg=18;lg<=24;lg+=2){ size_t n=(size_t)1<<lg; unsigned*k=malloc(n*4),*k2=malloc(n*4),*v=malloc(n*4),*v2=malloc(n*4); unsigned long long*ix=malloc(n*8);
  for(size_t j=0;j<n;j++){k[j]=rand()*2654435761u; v[j]=j;}
  double tp=1e9,ta=1e9; for(int r=0;r<3;r++){ memcpy(k2,k,n*4); memcpy(v2,v,n*4); double t0=now(); gp_sort_pairs(c,GP_U32,k2,GP_U32,v2,n,0,0); double t=now()-t0; if(t<tp)tp=t;
   t0=now(); gp_argsort(c,GP_I32,k,GP_U64,ix,n,0); t=now()-t0; if(t<ta)ta=t;}
  printf("2^%d pairs u32/u32 %.2f argsort i32 %.2f ns/key\n",lg,tp/n*1e9,ta/n*1e9);}}
