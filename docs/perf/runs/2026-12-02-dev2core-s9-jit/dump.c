#include "gpuprims.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc,char**argv){gp_context*ctx=NULL;gp_create(&ctx,GP_BACKEND_CPU);size_t need=0;char*src;
gp_dtype p=strcmp(argv[2],"f32")==0?GP_F32:GP_F64;
gp_integrate_source(ctx,argv[1],p,NULL,0,&need);src=malloc(need);gp_integrate_source(ctx,argv[1],p,src,need,NULL);fputs(src,stdout);return 0;}
