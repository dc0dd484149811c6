#!/usr/bin/env python3
"""Writes cedar_mountain.map: a RECONSTRUCTION of the Cedar Mountain map.

No seed contains the printed map. This script places the ground the rules
and history describe on a 40x34 grid (flat-topped hexes, even columns half a
hex down), so that every hex the exclusive rules name exists with plausible
terrain. Edit the tables below and re-run; the .map file is its output
(`python3 reconstruct_map.py > cedar_mountain.map`).

Orientation (inferred, see the map header): 23.1/23.2 retreat Confederates
west and Union east in directions that need W/E neighbours, which flat-topped
hexes only have if compass north is a side edge; Confederates enter on the
bottom edge (2934) and exit scoring toward Culpeper through 0101. So map top
= east (Culpeper), bottom = west (Orange), left = north, right = south
(Cedar Mountain).
"""
import math

COLS, ROWS = 40, 34

def axial(c, r):
    # even-q: even printed columns sit half a hex lower
    return (c, r - (c + (c & 1)) // 2)

def offset(q, r):
    return (q, r + (q + (q & 1)) // 2)

DIRS = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]

def neighbours(c, r):
    q, a = axial(c, r)
    out = []
    for dq, da in DIRS:
        n = offset(q + dq, a + da)
        if 1 <= n[0] <= COLS and 1 <= n[1] <= ROWS:
            out.append(n)
    return out

def dist(h1, h2):
    q1, r1 = axial(*h1); q2, r2 = axial(*h2)
    return max(abs(q1 - q2), abs(r1 - r2), abs((q1 + r1) - (q2 + r2)))

def line(h1, h2):
    """Hexes on the straight line from h1 to h2 (cube lerp)."""
    n = dist(h1, h2)
    q1, r1 = axial(*h1); q2, r2 = axial(*h2)
    out = []
    for i in range(n + 1):
        t = i / n if n else 0
        q = q1 + (q2 - q1) * t + 1e-6
        r = r1 + (r2 - r1) * t + 1e-6
        s = -q - r
        rq, rr, rs = round(q), round(r), round(s)
        dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
        if dq > dr and dq > ds:
            rq = -rr - rs
        elif dr > ds:
            rr = -rq - rs
        out.append(offset(rq, rr))
    return out

def path(*waypoints):
    out = []
    for a, b in zip(waypoints, waypoints[1:]):
        seg = line(a, b)
        out.extend(seg if not out else seg[1:])
    return out

def centre(c, r):
    return (1.5 * c, math.sqrt(3) * (r + (0.5 if c % 2 == 0 else 0.0)))

def crosses(p, q, a, b):
    def ccw(x, y, z):
        return (z[1] - x[1]) * (y[0] - x[0]) - (y[1] - x[1]) * (z[0] - x[0])
    return (ccw(p, a, b) * ccw(q, a, b) < 0) and (ccw(p, q, a) * ccw(p, q, b) < 0)

def water_sides(points):
    """Hexsides whose centre-to-centre segment crosses the polyline of hex
    centres `points`: a stream drawn along the hexsides between them."""
    pts = [centre(*h) for h in points]
    # nudge the polyline off hex centres so it runs along hexsides
    pts = [(x + 0.37, y + 0.41) for x, y in pts]
    sides = set()
    for c in range(1, COLS + 1):
        for r in range(1, ROWS + 1):
            for n in neighbours(c, r):
                if (c, r) < n and any(crosses(centre(c, r), centre(*n), a, b) for a, b in zip(pts, pts[1:])):
                    sides.add(((c, r), n))
    return sides

def h(s):
    return (int(s[:2]), int(s[2:]))

def num(x):
    return f"{x[0]:02}{x[1]:02}"

# ---- the ground ---------------------------------------------------------
level = {}
terrain = {}
names = {}

# Cedar Mountain (Slaughter Mountain), south-east of the field: top right.
SUMMIT = h("3809")
for c in range(1, COLS + 1):
    for r in range(1, ROWS + 1):
        d = dist((c, r), SUMMIT)
        lv = 4 if d <= 2 else 3 if d <= 4 else 2 if d <= 6 else 1 if d <= 9 else 0
        if lv:
            level[(c, r)] = lv
# The Union ridge east of the wheatfield and cornfield (rows 9-14).
for c in range(4, 30):
    for r in range(9, 15):
        level[(c, r)] = max(level.get((c, r), 0), 1)
# The rise at the Gate where Jackson's guns stood, west of the field.
for c in range(24, 31):
    for r in range(26, 31):
        level[(c, r)] = max(level.get((c, r), 0), 1)

def woods(hexes):
    for x in hexes:
        terrain.setdefault(x, set()).add("woods")

# Upper slopes of the mountain are wooded.
woods([x for x, lv in level.items() if lv >= 3 or (lv == 2 and x[0] >= 36)])
# "The woods" west of the wheatfield (Garnett's and Taliaferro's line).
woods([(c, r) for c in range(6, 22) for r in range(26, 35)])
# The woods east of the wheatfield where Crawford formed.
woods([(c, r) for c in range(10, 19) for r in range(15, 20)])
# Woods on the Union right (north edge) and along Cedar Run.
woods([(c, r) for c in range(1, 7) for r in range(15, 26)])
woods([(c, r) for c in range(14, 24) for r in range(3, 7)])

# The wheatfield: open, harvested ground (clear), cols 12-21, rows 20-25.
WHEAT = [(c, r) for c in range(12, 22) for r in range(20, 26)]
for x in WHEAT:
    terrain.pop(x, None)
names[h("1722")] = "Wheatfield"

# The cornfield in front of Augur's division (21.4). 21.42's example: 3017
# and 2816 see each other, 2716 and 3017 do not (corn at 2816 between).
# 2917 stays clear: the 2816-3017 line runs through it.
CORN = ["2816", "2817", "2818", "2918", "2919", "3017", "3018", "3118"]
for x in CORN:
    terrain[h(x)] = {"corn"}
names[h("2918")] = "Cornfield"

# The mill pond: 21.34 names the all-lake hexside 3119/3218.
for x in ["3119", "3218"]:
    terrain[h(x)] = {"lake"}
    level[h(x)] = 0
names[h("3119")] = "Mill pond"

# Roads and trails.
ROAD = path(h("2934"), h("2930"), h("2623"), h("2319"), h("1710"), h("0904"), h("0101"))
GATE = h("2826")  # on the road: where Crittenden Lane leaves it
LANE = path(GATE, h("3024"), h("3322"))  # Crittenden Lane to the house
EWELL_TRAIL = path(h("4032"), h("3727"), h("3322"), h("3415"))  # round the mountain's foot
names[GATE] = "The Gate"
names[h("3322")] = "Crittenden house"
names[h("2934")] = "Orange road"
names[h("4032")] = "Ewell's approach"
names[h("0101")] = "Culpeper road"
names[SUMMIT] = "Cedar Mountain"
names[h("3415")] = "Mountain shoulder"
names[h("2319")] = "Culpeper-Orange road"
names[h("1921")] = "Wheatfield east edge"
names[h("1323")] = "Wheatfield north edge"

# Cedar Run: the North Fork across the Union rear, the South Fork from the
# mountain past the mill pond; a small branch between the lines.
NORTH_FORK = [h("0108"), h("0608"), h("1207"), h("1807"), h("2206"), h("2402"), h("2501")]
SOUTH_FORK = [h("2206"), h("2609"), h("2913"), h("3117"), h("3220"), h("3424")]
BRANCH = [h("0426"), h("0922"), h("1519"), h("2016"), h("2415"), h("2814")]
LAKE = {h("3119"), h("3218")}
# The pond interrupts the South Fork: no run along the pond's own hexsides.
runs = {s for s in water_sides(NORTH_FORK) | water_sides(SOUTH_FORK) if not (set(s) & LAKE)}
streams = water_sides(BRANCH) - runs

def key(a, b):
    return (a, b) if a < b else (b, a)

sides = {}
def add(a, b, feat):
    sides.setdefault(key(a, b), []).append(feat)

for s in sorted(runs):
    add(*s, "run")
for s in sorted(streams):
    add(*s, "stream")
for seq, feat in [(ROAD, "road"), (LANE, "trail"), (EWELL_TRAIL, "trail")]:
    for a, b in zip(seq, seq[1:]):
        k = key(a, b)
        if feat in sides.get(k, []) or "road" in sides.get(k, []):
            continue
        if "run" in sides.get(k, []) or "stream" in sides.get(k, []):
            add(a, b, "bridge")
        add(a, b, feat)
add(h("3119"), h("3218"), "lake")
for c in range(1, COLS + 1):
    for r in range(1, ROWS + 1):
        for n in neighbours(c, r):
            if (c, r) < n:
                la, lb = level.get((c, r), 0), level.get(n, 0)
                if la != lb:
                    hi = (c, r) if la > lb else n
                    kind = "steep-crest" if min(la, lb) >= 2 else "crest"
                    add((c, r), n, f"{kind}:{num(hi)}")

print("""gbacw-map 1
# Cedar Mountain (SPI, 1981): a RECONSTRUCTION, not the printed map.
# Written by reconstruct_map.py (beside this file); edit that and re-run.
#
# How it was built. No seed contains the map. Fixed by the rules (seed 004):
#   2934, 4032  Confederate entry hexes (OB Roster; 26.4) - on a road/trail
#   0101        exit hex (27.23) - the Culpeper road
#   2319 1921 1323 3415  Victory Point hexes (27.22; Union OB Roster)
#   3119/3218   an all-lake hexside (21.34): the mill pond
#   3017 2816 2716  cornfield example (21.42): 3017 and 2816 see each
#               other, 2716 and 3017 do not (corn at 2816 lies between)
#   3015 3318 2207 2208  overshoot example (22.0): ranges 12 and 16
#               confirm the grid: flat-topped, even columns half a hex down
#   Union Deployment Areas 1-6 (26.2): centre hexes are NOT in the text;
#               chosen from the historical positions (scenario file)
# From history: the Culpeper-Orange road crossing the field diagonally,
# Cedar (Slaughter) Mountain to the south-east, the wheatfield with woods on
# both sides north of the road, the cornfield south of it in front of
# Augur, Crittenden Lane from the Gate to the Crittenden house, the North
# and South Forks of Cedar Run (runs, 21.35) behind the Union line.
# Compass (inferred from 23.1/23.2 and the entry and exit hexes): map top
# is EAST (Culpeper), bottom WEST (Orange), left NORTH, right SOUTH.
# Grid extent (40 x 34) is provisional: the rules name no hex beyond it.
# Elevation heights are provisional: 20 ft a level (the LOS gauge is lost).
name "Cedar Mountain (reconstruction)"
reconstruction "Not the printed SPI map: reconstructed from every hex the Cedar Mountain exclusive rules name (entry 2934/4032, exit 0101, victory hexes 2319 1921 1323 3415, lake hexside 3119/3218, the cornfield and overshoot examples) and the historical ground. Deployment areas, terrain, elevations and extent are provisional."
orientation flat
offset even
columns 01-40
rows 01-34
levels 0=0 1=20 2=40 3=60 4=80   # provisional: 20 ft a level
default clear level=0
""")
print("# --- Hexes ---")
for c in range(1, COLS + 1):
    for r in range(1, ROWS + 1):
        x = (c, r)
        t = sorted(terrain.get(x, []))
        lv = level.get(x, 0)
        nm = names.get(x)
        if not t and not lv and not nm:
            continue
        parts = ["hex", num(x)] + t
        if lv:
            parts.append(f"level={lv}")
        if nm:
            parts.append(f'name="{nm}"')
        print(" ".join(parts))
print()
print("# --- Hexsides: runs (Cedar Run forks), the branch, roads, trails, lake, crests ---")
order = {"run": 0, "stream": 1, "bridge": 2, "road": 3, "trail": 4, "lake": 5}
for (a, b), feats in sorted(sides.items()):
    feats = sorted(set(feats), key=lambda f: (order.get(f.split(":")[0], 9), f))
    print(f"side {num(a)}/{num(b)} " + " ".join(feats))

# Union Deployment Areas (26.2): "the central, numbered hex and the six
# adjacent". Printed on the real map; the centres are provisional (the
# scenario file gives the reason for each) and must match its `area` lines.
DEPLOYMENT = {"a1": "2111", "a2": "2416", "a3": "2813", "a4": "1517", "a5": "0912", "a6": "3310"}
print()
print("# --- Union Deployment Areas 1-6 (26.2): centre + six neighbours, provisional ---")
for name, c in DEPLOYMENT.items():
    hexes = [h(c)] + sorted(neighbours(*h(c)))
    print(f"area {name} " + " ".join(num(x) for x in hexes))
