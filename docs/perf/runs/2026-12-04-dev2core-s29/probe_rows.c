#include <gpuprims.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <stdint.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e9+t.tv_nsec;}
int main(int argc,char**argv){
  size_t rows = strtoull(argv[1],0,10), cols = strtoull(argv[2],0,10); int op = argc>3? atoi(argv[3]):0; int reps = argc>4? atoi(argv[4]):20;
  gp_context *c; gp_create(&c, GP_BACKEND_CPU);
  size_t n = rows*cols; float *a = malloc(n*4), *o = malloc(rows*4);
  srand(1); for (size_t i=0;i<n;i++) a[i]=(float)rand()/RAND_MAX-0.5f;
  double best=1e30;
  for(int r=0;r<reps;r++){ double t0=now(); gp_status s = gp_reduce_rows(c, (gp_op)op, GP_F32, a, rows, cols, o); if(s){printf("%s\n",gp_last_error(c));return 1;} double t=now()-t0; if(t<best)best=t;}
  printf("rows %zu x %zu op %d: %.1f us (%.1f ns/row)\n", rows, cols, op, best/1e3, best/rows);
  gp_destroy(c); }
