#include <gpuprims.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <stdint.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e9+t.tv_nsec;}
int main(int argc,char**argv){
  size_t n = argc>1? strtoull(argv[1],0,10):16; int which = argc>2? atoi(argv[2]) : -1;
  gp_context *c; if(gp_create(&c, GP_BACKEND_CPU)) {puts("create"); return 1;}
  float *a=malloc(n*4),*o=malloc(n*4); uint64_t *ix=malloc(n*8); double r; uint64_t idx;
  srand(1); for(size_t i=0;i<n;i++) a[i]=(float)rand()/RAND_MAX-0.5f;
  const char *names[]={"sort_copy","reduce sum","argreduce max","argsort u64","reduce max","topk16"};
  for(int w=0; w<6; w++){ if(which>=0 && w!=which) continue;
    int reps = 200000; if (n > 4096) reps = 20000000/n + 10;
    double best=1e30;
    for(int rr=0;rr<5;rr++){ double t0=now();
      for(int i=0;i<reps;i++){ gp_status s=0;
        switch(w){case 0: s=gp_sort_copy(c,GP_F32,a,o,n,GP_ASCENDING,GP_SORT_AUTO);break;
          case 1: s=gp_reduce(c,GP_SUM,GP_F32,a,n,&r,GP_REDUCE_AUTO);break;
          case 2: s=gp_argreduce(c,GP_MAX,GP_F32,a,n,NULL,&idx);break;
          case 3: s=gp_argsort(c,GP_F32,a,GP_U64,ix,n,GP_ASCENDING);break;
          case 4: s=gp_reduce(c,GP_MAX,GP_F32,a,n,&r,GP_REDUCE_AUTO);break;
          case 5: if(n>=16) s=gp_topk(c,GP_F32,a,n,16,GP_DESCENDING,o,ix);break;}
        if(s){printf("err %s\n", gp_last_error(c)); return 1;} }
      double t=(now()-t0)/reps; if(t<best) best=t; }
    printf("%-14s n=%-9zu %9.1f ns\n",names[w],n,best);
  }
  gp_destroy(c); return 0; }
