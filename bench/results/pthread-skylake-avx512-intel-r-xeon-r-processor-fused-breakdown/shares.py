# Shares of the stage time per probe from run.sh output: python3 shares.py output.txt > shares.txt
# (part = 1 - time without it / stage time; "rest" = time with all three removed / stage time)
import sys
blocks={}; cur=None
for l in open(sys.argv[1]):
    if l.startswith('=='): cur=l.strip('= \n'); blocks[cur]=[]
    elif cur and ' ms ' in l: blocks[cur].append((float(l.split()[0]), float(l.split()[3].rstrip(')'))))
print('%-22s %15s %7s %7s %7s %7s %7s'%('', 'stage (min)','gather','flux','volume','lift','rest'))
for k,v in blocks.items():
    t,ng,nf,nv,nl,nn=[x[0] for x in v]
    print('%-22s %6.3f (%6.3f) %6.0f%% %6.0f%% %6.0f%% %6.0f%% %6.0f%%'%(k,t,v[0][1],100*(t-ng)/t,100*(t-nf)/t,100*(t-nv)/t,100*(t-nl)/t,100*nn/t))
