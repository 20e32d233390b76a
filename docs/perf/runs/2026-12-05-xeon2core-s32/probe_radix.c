#include <gpuprims.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(){ gp_context*c; gp_create(&c,GP_BACKEND_CPU);
 for(int lg=8;lg<=17;lg++){ size_t n=(size_t)1<<lg; 
  unsigned long long*k=malloc(n*8),*k2=malloc(n*8),*ix=malloc(n*8); unsigned*v=malloc(n*4),*v2=malloc(n*4);
  for(size_t j=0;j<n;j++){ k[j]=((unsigned long long)rand()<<34)^((unsigned long long)rand()<<10)^rand(); v[j]=j;}
  int N=(int)(1000000/n)+3; double t[5]={1e9,1e9,1e9,1e9,1e9};
  for(int r=0;r<3;r++){ double a[5]={0};
   for(int it=0;it<N;it++){ double t0;
    memcpy(k2,k,n*4); t0=now(); gp_sort(c,GP_U32,k2,n,0,0); a[0]+=now()-t0;
    memcpy(k2,k,n*8); t0=now(); gp_sort(c,GP_U64,k2,n,0,0); a[1]+=now()-t0;
    memcpy(k2,k,n*4); memcpy(v2,v,n*4); t0=now(); gp_sort_pairs(c,GP_U32,k2,GP_U32,v2,n,0,0); a[2]+=now()-t0;
    memcpy(k2,k,n*8); memcpy(v2,v,n*4); t0=now(); gp_sort_pairs(c,GP_U64,k2,GP_U32,v2,n,0,0); a[3]+=now()-t0;
    t0=now(); gp_argsort(c,GP_I32,k,GP_U64,ix,n,0); a[4]+=now()-t0; }
   for(int q=0;q<5;q++) if(a[q]<t[q]) t[q]=a[q];}
  printf("2^%d sort u32 %.2f u64 %.2f pairs u32 %.2f u64 %.2f argsort i32 %.2f ns/key\n",lg,t[0]/N/n*1e9,t[1]/N/n*1e9,t[2]/N/n*1e9,t[3]/N/n*1e9,t[4]/N/n*1e9);
  free(k);free(k2);free(ix);free(v);free(v2);}}
