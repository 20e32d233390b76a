#include <gpuprims.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(int argc,char**argv){
  gp_context*c; gp_create(&c,GP_BACKEND_CPU);
  gp_dtype ts[2]={GP_F32,GP_F64};
  for(int ti=0;ti<2;ti++) for(int lg=11;lg<=20;lg++){ size_t n=(size_t)1<<lg; size_t es=ti?8:4;
    char*a=malloc(n*8),*b=malloc(n*8); srand(1); for(size_t i=0;i<n;i++){ double g=(double)rand()/RAND_MAX-0.5; if(ti) ((double*)a)[i]=g; else ((float*)a)[i]=(float)g;}
    int N=(int)(4000000/n)+5; double best=1e9;
    for(int r=0;r<5;r++){double t=0; for(int i=0;i<N;i++){ double t0=now(); gp_sort_copy(c,ts[ti],a,b,n,GP_ASCENDING,GP_SORT_AUTO); t+=now()-t0;} if(t<best)best=t;}
    printf("%s 2^%d %.2f us %.2f ns/key\n",ti?"f64":"f32",lg,best/N*1e6,best/N/n*1e9); free(a); free(b);}
  gp_destroy(c);}
