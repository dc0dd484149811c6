# How assets/gbacw/corinth/corinth.map was first drawn: the regions, lines and
# hexes below, turned into hex and hexside lines. The .map file is the source of
# truth and may be edited by hand since; rerunning this overwrites such edits.
# Usage: python3 corinth-map.py corinth.map header.map  (header = the lines up
# to and including `default`, copied from the current corinth.map).
# Generator for assets/gbacw/corinth/corinth.map (kept outside the repo's build;
# the .map file is the reviewed artifact).
import math
C0,C1,R0,R1=1,39,1,45
def on(c,r): return C0<=c<=C1 and R0<=r<=R1
def H(s): return (int(s[:2]),int(s[2:]))
def S(h): return "%02d%02d"%h
def nbrs(h):
    c,r=h
    out=[(c,r-1),(c,r+1)]
    if c%2==0: out+=[(c-1,r),(c-1,r+1),(c+1,r),(c+1,r+1)]
    else: out+=[(c-1,r-1),(c-1,r),(c+1,r-1),(c+1,r)]
    return [n for n in out if on(*n)]
def cube(h):
    c,r=h; q=c; rr=r-(c+(c&1))//2; return (q,rr,-q-rr)
def uncube(x):
    q,rr,_=x; c=q; r=rr+(c+(c&1))//2; return (c,r)
def dist(a,b):
    a=cube(a);b=cube(b);return max(abs(a[i]-b[i]) for i in range(3))
def px(h):
    c,r=h; return (c*1.5, r*math.sqrt(3)+(math.sqrt(3)/2 if c%2==0 else 0))
def cround(x,y,z):
    rx,ry,rz=round(x),round(y),round(z)
    dx,dy,dz=abs(rx-x),abs(ry-y),abs(rz-z)
    if dx>dy and dx>dz: rx=-ry-rz
    elif dy>dz: ry=-rx-rz
    else: rz=-rx-ry
    return (rx,ry,rz)
def line(a,b):
    n=dist(a,b); A=cube(a); B=cube(b); out=[]
    for i in range(n+1):
        t=i/max(n,1)
        p=[A[k]+(B[k]-A[k])*t+1e-6*(k+1) for k in range(3)]
        out.append(uncube(cround(*p)))
    return out
def path(*ws):
    ws=[H(w) for w in ws]; out=[ws[0]]
    for a,b in zip(ws,ws[1:]):
        out+=line(a,b)[1:]
    for a,b in zip(out,out[1:]): assert dist(a,b)==1,(a,b)
    return out
ALL=[(c,r) for c in range(C0,C1+1) for r in range(R0,R1+1)]
def key(a,b): return (a,b) if a<b else (b,a)
sides={}  # key -> dict kind->arg
def add(a,b,kind,arg=None):
    k=key(a,b); d=sides.setdefault(k,{})
    if kind in d and d[kind]!=arg: raise Exception(("conflict",k,kind))
    d[kind]=arg
def along(p,kind):
    for a,b in zip(p,p[1:]): add(a,b,kind)

hexes={}  # h -> dict(terrain=set, level=int, name=str)
def hx(h): return hexes.setdefault(h,{"terrain":set(),"level":None,"name":None})

TOWN_C=H("2637")
# --- town
town=set()
for h in ALL:
    if dist(h,H("2737"))<=3 or dist(h,H("2537"))<=1: town.add(h)
town.discard(H("2833"))
for h in [H("2834"),H("2437"),H("2636"),H("2637"),H("2737")]: assert h in town,h
# --- swamp (level 0)
swamp=set()
for w in ["3412","3314","3316","3318","3320","3322"]:
    for h in ALL:
        if dist(h,H(w))<=1: swamp.add(h)
# --- levels: ridge north-east of town (level 2), 3031 stays level 1 (23.6)
ridge=set(h for h in ALL if dist(h,H("3128"))<=2)|set(h for h in ALL if dist(h,H("2829"))<=1)
ridge.add(H("3030")); ridge.discard(H("3031")); ridge-=swamp
# --- cleared ground around the town (and a few farms)
clear=set(h for h in ALL if dist(h,TOWN_C)<=10)
for f,rad in [("1212",1),("0830",1),("1422",1),("3340",1),("0740",1),("1817",1),("2012",1)]:
    clear|=set(h for h in ALL if dist(h,H(f))<=rad)
for f in ["1344","1042","0838","0633","0527","0918","3844"]:
    clear|=set(h for h in ALL if dist(h,H(f))<=1)   # redans stand in cleared ground
clear-=town; clear-=swamp

# --- outer works: inner if row > g(col)
g={1:9,2:9,3:9,4:8,5:8,6:7,7:7,8:7,9:6,10:6,11:5,12:5,13:4,14:4,15:4,16:3,17:3,18:3,19:2,20:2,21:2,22:2,23:2,24:2,25:2,
   26:1,27:1,28:1,29:1,30:1,31:2,32:3,33:4,34:5,35:6,36:7,37:8,38:9,39:10}
def inner(h): return h[1]>g[h[0]]
for h in ALL:
    for n in nbrs(h):
        if inner(h) and not inner(n): add(h,n,"works",h)
for h in ["0310","0409","0509","0608","0708","2802"]:
    assert inner(H(h)) and any(not inner(n) for n in nbrs(H(h))),h

# --- streams: boundary between col<=f(row) and the rest, rows in range
def stream(f,rows):
    for h in ALL:
        if h[1] not in rows: continue
        for n in nbrs(h):
            if n[1] not in rows: continue
            a=h[0]<=f(h[1]); b=n[0]<=f(n[1])
            if a and not b: add(h,n,"stream")
elam=lambda r: 35 if r<9 else (34 if r<13 else (33 if r<25 else 31))
stream(elam,range(4,46))
clear_creek=lambda r: 13 if r<20 else 11
stream(clear_creek,range(3,31))

# --- railroads
mc_w=path("2437","2037","1537","1034","0628","0322","0120")
mc_e=path("2437","2937","3436","3936")
mo_n=path("2437","2430","2520","2510","2501")
mo_s=path("2437","2441","2445")
for p in [mc_w,mc_e,mo_n,mo_s]: along(p,"railroad")
# --- roads
roads={
 "Chewalla road":path("2437","2536","2034","1631","1227","0822","0418","0116"),
 "Columbus road":path("2637","2535","2028","1817","1610","1605","1401"),
 "Davies' lateral road (1605-2507, 30.12)":path("1605","2006","2507"),
 "Purdy road":path("2737","2736","2835","2834","2833","2820","2910","3001"),
 "Kossuth road":path("2437","2438","2344","1945","1645"),
 "Smith's Bridge road":path("2437","2438","1839","1240","0638","0137"),
 "Farmington road":path("2937","3437","3937"),
 "Danville road":path("2737","2740","2745"),
 "road to Hamburg":path("2937","2940","3444","3844","3945"),
 "Main street":path("2437","2537","2637","2737","2837","2937"),
}
for p in roads.values(): along(p,"road")
assert "road" in sides[key(H("2833"),H("2834"))]
assert "road" not in sides.get(key(H("2934"),H("2834")),{})

# --- redans: inner hex; redan sides on the three sides facing away from the town
redans=[("2729","Battery Powell","redan-primary"),("1934","Battery Robinett","redan-primary"),
        ("1838","Battery Williams","redan-primary"),("1942","Battery Phillips","redan-primary"),
        ("1344","Redan A","redan-secondary"),("1042","Redan B","redan-secondary"),("0838","Redan C","redan-secondary"),
        ("0633","Redan D","redan-secondary"),("0527","Redan E","redan-secondary"),("0918","Redan F","redan-secondary")]
cx,cy=px(TOWN_C)
for hs,name,kind in redans:
    h=H(hs)
    ns=sorted(nbrs(h),key=lambda n:-math.hypot(px(n)[0]-cx,px(n)[1]-cy))[:3]
    for n in ns: add(h,n,kind,h)
    hx(h)["name"]=name

# --- areas (edge hexes)
def hs(a,b):
    A,B=H(a),H(b); out=[]
    if A[1]==B[1]: return [(c,A[1]) for c in range(A[0],B[0]+1)]
    return [(A[0],r) for r in range(A[1],B[1]+1)]
areas={
 "assault-a":hs("2501","3301"),
 "assault-b":hs("1801","2501"),
 "assault-c":hs("1001","1801"),
 "assault-d":hs("0101","0107")+hs("0201","1001"),
 "assault-e":hs("0114","0124"),
 "assault-f":hs("0139","0145")+hs("0245","0545"),
 "assault-g":hs("3301","3901")+hs("3902","3910"),
}
allarea=set(h for v in areas.values() for h in v)
def near(h): return min(dist(h,a) for a in allarea)
assert near(H("0426"))<=4 and near(H("0527"))>=5 and near(H("2802"))<=4
for hs_,_,_ in redans: assert near(H(hs_))>=5,(hs_,near(H(hs_)))

# --- names
names={"2437":"Tishomingo Hotel","3844":"Objective 3844","2344":"Objective 2344","2231":"Fort Richardson","2737":"Corinth"}
for k,v in names.items(): hx(H(k))["name"]=v

for h in ALL:
    t=set()
    if h in town: t.add("town")
    elif h in swamp: t.add("swamp")
    elif h in clear: t.add("clear")
    lvl=0 if h in swamp else (2 if h in ridge else 1)
    d=hx(h); d["terrain"]=t; d["level"]=lvl
# crests between levels
for h in ALL:
    for n in nbrs(h):
        if hexes[h]["level"]>hexes[n]["level"]: add(h,n,"crest",h)
assert any(sides.get(key(H("3031"),n),{}).get("crest")==n for n in nbrs(H("3031")))

import sys
out=open(sys.argv[1],"w")
out.write(open(sys.argv[2]).read())
out.write("\n# --- Hexes: terrain differing from the default (woods, level 1), level, names ---\n")
for h in sorted(ALL):
    d=hexes[h]; parts=[]
    if d["terrain"]: parts+=sorted(d["terrain"])
    if d["level"]!=1: parts.append("level=%d"%d["level"])
    if d["name"]: parts.append('name="%s"'%d["name"])
    if parts: out.write("hex %s %s\n"%(S(h)," ".join(parts)))
out.write("\n# --- Hexsides: works (inner hex named), redans (inner hex), streams, crests (higher hex), roads, railroads ---\n")
order=["stream","crest","road","railroad","works","redan-primary","redan-secondary"]
for k in sorted(sides):
    d=sides[k]; parts=[]
    for kind in order:
        if kind in d: parts.append(kind if d[kind] is None else "%s:%s"%(kind,S(d[kind])))
    out.write("side %s/%s %s\n"%(S(k[0]),S(k[1])," ".join(parts)))
out.write("\n# --- Assault Areas A-G (29.1): map-edge hexes; each row is its area's first row (29.31) ---\n")
for a in sorted(areas):
    hs_=[S(h) for h in areas[a]]
    for i in range(0,len(hs_),12):
        out.write("area %s %s\n"%(a," ".join(hs_[i:i+12])))
print("hexes",sum(1 for h in ALL if hexes[h]["terrain"] or hexes[h]["level"]!=1 or hexes[h]["name"]),"sides",len(sides),file=sys.stderr)
print("town",sorted(S(h) for h in town),file=sys.stderr)
