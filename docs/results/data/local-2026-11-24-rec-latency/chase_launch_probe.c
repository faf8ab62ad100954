/* Probe for issue 17 (docs/results/decide.md, 2026-11-24): launches of memory.latency's chase
 * kernel on a 1 GiB random cycle (64 B nodes), PoCL, 150 launches per mode: an empty launch
 * (rounds 0) back to back or after 400 us of host idle, and a 1024-load chase the same two ways.
 * Medians of host wall (enqueue -> clFinish) and profiling spans. Not part of the build:
 *   gcc -O2 -o probe chase_launch_probe.c -lOpenCL && ./probe 1073741824 150 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
static const char *src =
"#define HOP(m) p = (m)[p];\n"
"#define HOP16(m) HOP(m) HOP(m) HOP(m) HOP(m) HOP(m) HOP(m) HOP(m) HOP(m) HOP(m) HOP(m) HOP(m) HOP(m) HOP(m) HOP(m) HOP(m) HOP(m)\n"
"kernel void chase(global const uint *restrict next, global uint *restrict out, uint start, uint rounds)\n"
"{ uint p = start; for (uint i = 0; i < rounds; i++) { HOP16(next) } out[0] = p; }\n";
static int cmp(const void*a,const void*b){double x=*(const double*)a,y=*(const double*)b;return x<y?-1:x>y;}
static double med(double*v,int n){qsort(v,(size_t)n,sizeof*v,cmp);return v[n/2];}
int main(int argc,char**argv){
  size_t bytes=(size_t)1<<30; if(argc>1) bytes=(size_t)atof(argv[1]);
  int N=argc>2?atoi(argv[2]):40;
  cl_platform_id pl; cl_device_id dv; cl_int e;
  clGetPlatformIDs(1,&pl,NULL); clGetDeviceIDs(pl,CL_DEVICE_TYPE_ALL,1,&dv,NULL);
  cl_context cx=clCreateContext(NULL,1,&dv,NULL,NULL,&e);
  cl_command_queue q=clCreateCommandQueue(cx,dv,CL_QUEUE_PROFILING_ENABLE,&e);
  cl_program pr=clCreateProgramWithSource(cx,1,&src,NULL,&e); e=clBuildProgram(pr,1,&dv,"",NULL,NULL); if(e){printf("build %d\n",e);return 1;}
  cl_kernel k=clCreateKernel(pr,"chase",&e);
  size_t nn=bytes/64; uint32_t *h=malloc(bytes), *pi=malloc(nn*4); uint64_t st=12345;
  for(size_t i=0;i<nn;i++)pi[i]=(uint32_t)i;
  for(size_t i=nn-1;i>0;i--){st=st*6364136223846793005ULL+1442695040888963407ULL;size_t j=(size_t)((st>>33)%i);uint32_t t=pi[i];pi[i]=pi[j];pi[j]=t;}
  for(size_t i=0;i<nn;i++)h[i*16]=pi[i]*16;
  cl_mem nb=clCreateBuffer(cx,CL_MEM_READ_ONLY,bytes,NULL,&e), ob=clCreateBuffer(cx,CL_MEM_WRITE_ONLY,4,NULL,&e);
  clEnqueueWriteBuffer(q,nb,CL_TRUE,0,bytes,h,0,NULL,NULL);
  clSetKernelArg(k,0,sizeof nb,&nb); clSetKernelArg(k,1,sizeof ob,&ob);
  uint32_t p=0; size_t one=1;
  /* modes: 0 hot empty launches; 1 empty launches after 400 us of host idle; 2 1024-load chases back to back; 3 1024-load chase after 400 us idle */
  const char *names[]={"empty, back to back","empty, after 400 us idle","1024 loads, back to back","1024 loads, after 400 us idle"};
  static double w[4][400],qs[4][400],ev[4][400],tail[4][400]; int M=N;
  for(int i=-5;i<M;i++) for(int m=0;m<4;m++){
      unsigned rounds=m>=2?64:0; uint32_t start;
      st=st*6364136223846793005ULL+1442695040888963407ULL; start=(uint32_t)((st>>33)%nn)*16;
      if(m==1||m==3){struct timespec ts={0,400000};nanosleep(&ts,NULL);}
      if(m==0||m==2){/* back to back: one unmeasured launch just before */
        cl_uint z=0; clSetKernelArg(k,3,4,&z); clEnqueueNDRangeKernel(q,k,1,NULL,&one,&one,0,NULL,NULL); clFinish(q);}
      cl_event E; double t0=now();
      clSetKernelArg(k,2,4,&start); clSetKernelArg(k,3,4,&rounds);
      clEnqueueNDRangeKernel(q,k,1,NULL,&one,&one,0,NULL,&E); clFinish(q);
      double t1=now(); cl_ulong a[4];
      clGetEventProfilingInfo(E,CL_PROFILING_COMMAND_QUEUED,8,&a[0],NULL);
      clGetEventProfilingInfo(E,CL_PROFILING_COMMAND_START,8,&a[2],NULL);clGetEventProfilingInfo(E,CL_PROFILING_COMMAND_END,8,&a[3],NULL);
      clReleaseEvent(E);
      if(i>=0){w[m][i]=1e6*(t1-t0);ev[m][i]=1e-3*(double)(a[3]-a[2]);qs[m][i]=1e-3*(double)(a[2]-a[0]);tail[m][i]=w[m][i]-1e-3*(double)(a[3]-a[0]);}
  }
  for(int m=0;m<4;m++){double mw=med(w[m],M),me=med(ev[m],M),mq=med(qs[m],M),mt=med(tail[m],M);
    printf("%-30s wall %7.1f us  queued->start %6.1f  start->end %7.1f  wall-(queued->end) %6.1f  wall-event %6.1f\n",names[m],mw,mq,me,mt,mw-me);}
  (void)p;
  return 0;
}
