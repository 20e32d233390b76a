/* Prototype of a split integrate JIT (issue 13): the kernel skeleton compiled once with
 * -rdc (prep), each expression's f alone compiled with -rdc and linked to it by
 * nvJitLink (run). Times the run step as a fresh process's first NVRTC use.
 *   nvlink2 prep SKEL.cu OUT.cubin | nvlink2 run SKEL.cubin F.cu */
#include <nvrtc.h>
#include <nvJitLink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now_ms(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e3+t.tv_nsec/1e6;}
static char*rd(const char*p,size_t*n){FILE*f=fopen(p,"rb");fseek(f,0,2);long m=ftell(f);rewind(f);char*s=malloc(m+1);if(fread(s,1,m,f)!=(size_t)m)exit(1);s[m]=0;if(n)*n=m;fclose(f);return s;}
static char*comp(const char*src,size_t*sz){nvrtcProgram p;nvrtcCreateProgram(&p,src,"k.cu",0,0,0);
const char*o[]={"--gpu-architecture=sm_90","--std=c++17","--fmad=false","--prec-div=true","--prec-sqrt=true","--ftz=false","-minimal","-rdc=true"};
if(nvrtcCompileProgram(p,8,o)){size_t ls;nvrtcGetProgramLogSize(p,&ls);char*l=malloc(ls);nvrtcGetProgramLog(p,l);fprintf(stderr,"%s\n",l);exit(1);}
nvrtcGetCUBINSize(p,sz);char*b=malloc(*sz);nvrtcGetCUBIN(p,b);nvrtcDestroyProgram(&p);return b;}
int main(int argc,char**argv){
if(argc==4&&!strcmp(argv[1],"prep")){size_t ks;char*kb=comp(rd(argv[2],0),&ks);FILE*f=fopen(argv[3],"wb");fwrite(kb,1,ks,f);fclose(f);return 0;}
size_t ks,fs;char*kb=rd(argv[2],&ks);char*fsrc=rd(argv[3],0);
double t0=now_ms();char*fb=comp(fsrc,&fs);double t1=now_ms();
nvJitLinkHandle h;const char*lo[]={"-arch=sm_90"};
if(nvJitLinkCreate(&h,1,lo)||nvJitLinkAddData(h,NVJITLINK_INPUT_CUBIN,kb,ks,"skel")||nvJitLinkAddData(h,NVJITLINK_INPUT_CUBIN,fb,fs,"f")||nvJitLinkComplete(h)){fprintf(stderr,"link failed\n");return 1;}
double t2=now_ms();size_t cs;nvJitLinkGetLinkedCubinSize(h,&cs);
printf("f_ms=%.1f link_ms=%.1f total_ms=%.1f cubin=%zu\n",t1-t0,t2-t1,t2-t0,cs);return 0;}
