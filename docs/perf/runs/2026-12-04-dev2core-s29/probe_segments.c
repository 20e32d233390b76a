#include <gpuprims.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <stdint.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e9+t.tv_nsec;}
int main(int argc,char**argv){
  size_t rows = strtoull(argv[1],0,10), cols = strtoull(argv[2],0,10); int what = argc>3? atoi(argv[3]):0; int reps = argc>4? atoi(argv[4]):10;
  gp_context *c; gp_create(&c, GP_BACKEND_CPU);
  size_t n = rows*cols; float *a = malloc(n*4), *b = malloc(n*4), *v = malloc(rows*8*4); uint64_t *ix = malloc(rows*8*8);
  srand(1); for (size_t i=0;i<n;i++) a[i]=(float)rand()/RAND_MAX-0.5f;
  double best=1e30;
  for(int r=0;r<reps;r++){ memcpy(b,a,n*4); double t0=now(); gp_status s;
    if (what==0) s = gp_sort_segments(c, GP_F32, b, n, cols, GP_ASCENDING);
    else s = gp_topk_rows(c, GP_F32, a, rows, cols, 8, GP_DESCENDING, v, ix);
    if(s){printf("%s\n",gp_last_error(c));return 1;} double t=now()-t0; if(t<best)best=t;}
  printf("%s %zu x %zu: %.1f us (%.1f ns/row)\n", what? "topk8 rows":"sort rows", rows, cols, best/1e3, best/rows);
  gp_destroy(c); }
