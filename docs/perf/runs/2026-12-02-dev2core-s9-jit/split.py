import sys
src, skel_out, f_out = sys.argv[1:4]
s=open(src).read()
import re; m=re.search(r'static __device__ __(no|force)inline__ gp_real gp_f\(',s); i=m.start()
j=s.index('\n}\n',i)+3
f_def=s[i:j]
real='typedef float gp_real;\n' if '#define GP_F32 1' in s else 'typedef double gp_real;\n'
open(skel_out,'w').write(s[:i]+'extern "C" __device__ gp_real gp_f(const gp_real x);\n'+s[j:])
open(f_out,'w').write(real+re.sub(r'static __device__ __(no|force)inline__ gp_real gp_f\(','extern "C" __device__ gp_real gp_f(',f_def))
