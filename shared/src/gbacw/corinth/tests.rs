//! The Corinth data against the exclusive rules (001, 19-31): every hex the
//! rules name is on the reconstructed map with the features the rules give
//! it, and the set-up checks agree with the rules' own examples.

use super::setup::{Placement, SetupViolation, check_29_41, hex_allowed_29_41, inside_outer_works};
use super::*;
use crate::gbacw::map::{Map, SideKind, Terrain};
use crate::gbacw::oob::CounterId;
use std::collections::{BTreeSet, VecDeque};

fn map() -> Map {
    load_map().unwrap_or_else(|e| panic!("corinth.map: {e}"))
}

fn n(s: &str) -> HexNumber {
    hex(s).unwrap_or_else(|| panic!("bad hex {s}"))
}

fn side_has(m: &Map, a: &str, b: &str, kind: SideKind) -> bool {
    m.grid
        .hexside(n(a), n(b))
        .is_some_and(|s| m.side_has(s, kind))
}

/// Hexes joined to `from` by hexsides carrying `kind`.
fn connected_by(m: &Map, from: HexNumber, kind: SideKind) -> BTreeSet<HexNumber> {
    let mut seen = BTreeSet::from([from]);
    let mut queue = VecDeque::from([from]);
    while let Some(h) = queue.pop_front() {
        for (_, next) in m.grid.neighbours_on_map(h) {
            let along = m.grid.hexside(h, next).is_some_and(|s| m.side_has(s, kind));
            if along && seen.insert(next) {
                queue.push_back(next);
            }
        }
    }
    seen
}

fn is_map_edge(m: &Map, h: HexNumber) -> bool {
    let g = &m.grid;
    h.col() == g.cols.0 || h.col() == g.cols.1 || h.row() == g.rows.0 || h.row() == g.rows.1
}

#[test]
fn corinth_19_0_map_loads_and_says_it_is_a_reconstruction() {
    let m = map();
    assert!(m.name.contains("Corinth"));
    assert!(m.reconstruction.starts_with("Reconstruction"));
    assert_eq!((m.grid.cols, m.grid.rows), ((1, 39), (1, 45)));
    assert_eq!(m.hexes().count(), 39 * 45);
}

#[test]
fn corinth_31_1_tishomingo_hotel_2437_is_a_named_town_hex() {
    let m = map();
    let hotel = m.hex(n(TISHOMINGO_HOTEL)).unwrap();
    assert!(hotel.has(Terrain::Town));
    assert_eq!(hotel.name.as_deref(), Some("Tishomingo Hotel"));
    // 31.1: the other two objective hexes exist and are named.
    for h in ["3844", "2344"] {
        let info = m.hex(n(h)).unwrap();
        assert!(info.name.as_deref().is_some_and(|s| s.contains(h)), "{h}");
    }
}

#[test]
fn corinth_19_0_the_two_railroads_cross_at_the_hotel() {
    // 19.0, 31.0: the Mobile & Ohio (north-south) and the Memphis &
    // Charleston (east-west) meet at the edge of town; the hotel stood there.
    let m = map();
    let rails = m
        .grid
        .neighbours_on_map(n("2437"))
        .into_iter()
        .filter(|(_, x)| side_has(&m, "2437", &x.to_string(), SideKind::Railroad))
        .count();
    assert_eq!(rails, 4, "two lines through the hotel hex");
    let network = connected_by(&m, n("2437"), SideKind::Railroad);
    let edges: Vec<_> = network.iter().filter(|h| is_map_edge(&m, **h)).collect();
    assert_eq!(edges.len(), 4, "four rail exits: {edges:?}");
}

#[test]
fn corinth_23_31_artillery_enters_2834_from_2833_but_not_from_2934() {
    let m = map();
    assert!(m.hex(n("2834")).unwrap().has(Terrain::Town));
    assert!(!m.hex(n("2833")).unwrap().has(Terrain::Town));
    assert!(side_has(&m, "2833", "2834", SideKind::Road));
    assert!(m.grid.hexside(n("2934"), n("2834")).is_some());
    assert!(!side_has(&m, "2934", "2834", SideKind::Road));
}

#[test]
fn corinth_29_44_artillery_park_2737_and_its_neighbours_are_town() {
    let m = map();
    assert!(m.hex(n("2737")).unwrap().has(Terrain::Town));
    for (_, h) in m.grid.neighbours_on_map(n("2737")) {
        assert!(m.hex(h).unwrap().has(Terrain::Town), "{h}");
    }
    // 30.12, 30.16: 22 Ohio in 2636 and 14 Mo SS in 2637 are in town too.
    for h in ["2636", "2637"] {
        assert!(m.hex(n(h)).unwrap().has(Terrain::Town), "{h}");
    }
    // 29.44: the park must be able to leave town: a road hexside out of it.
    let streets = connected_by(&m, n("2737"), SideKind::Road);
    assert!(streets.iter().any(|h| is_map_edge(&m, *h)));
}

#[test]
fn corinth_23_6_3031_is_a_crest_hex_on_level_1() {
    // 23.6: "a unit in hex 3031 is on elevation level 1": the crest runs
    // through it, and it counts as the lower level. The map keeps 3031 on
    // level 1 with a crest hexside up to a level-2 neighbour.
    let m = map();
    let h = n("3031");
    assert_eq!(m.hex(h).unwrap().level, 1);
    let up: Vec<_> = m
        .grid
        .neighbours_on_map(h)
        .into_iter()
        .filter(|(_, x)| m.crosses_crest_upward(h, *x))
        .collect();
    assert!(!up.is_empty());
    for (_, x) in up {
        assert_eq!(m.hex(x).unwrap().level, 2);
    }
}

#[test]
fn corinth_23_6_every_level_change_is_a_crest() {
    let m = map();
    for (h, info) in m.hexes() {
        for (_, x) in m.grid.neighbours_on_map(h) {
            let other = m.hex(x).unwrap().level;
            if other > info.level {
                assert!(m.crosses_crest_upward(h, x), "{h} -> {x}");
            }
        }
    }
}

/// The redans as the map names them: (hex, name, primary).
fn redans(m: &Map) -> Vec<(HexNumber, String, bool)> {
    let mut out = Vec::new();
    for (h, info) in m.hexes() {
        let kinds: BTreeSet<SideKind> = m
            .grid
            .neighbours_on_map(h)
            .into_iter()
            .filter_map(|(_, x)| m.grid.hexside(h, x))
            .flat_map(|s| m.side_features(s).filter(|f| f.side == Some(h)))
            .map(|f| f.kind)
            .filter(|k| matches!(k, SideKind::RedanPrimary | SideKind::RedanSecondary))
            .collect();
        if let Some(k) = kinds.iter().next() {
            assert_eq!(kinds.len(), 1, "{h}: one kind of redan");
            let name = info.name.clone().unwrap_or_default();
            out.push((h, name, *k == SideKind::RedanPrimary));
        }
    }
    out
}

#[test]
fn corinth_23_2_ten_redans_with_battery_e_at_0527() {
    let m = map();
    let r = redans(&m);
    // 29.44: Robinett, Phillips, Williams in their own redans plus seven
    // independent batteries "in the remaining seven redans": ten in all.
    assert_eq!(r.len(), 10, "{r:?}");
    // 29.41: "a unit could set up in Battery E (0527)": a secondary redan.
    assert!(r.contains(&(n("0527"), "Redan E".into(), false)));
    // 23.2: primary redans are named after their battery; D, E, F lettered.
    for name in ["Battery Robinett", "Battery Phillips", "Battery Williams"] {
        assert!(r.iter().any(|(_, s, p)| s == name && *p), "{name}");
    }
    for name in ["Redan D", "Redan E", "Redan F"] {
        assert!(r.iter().any(|(_, s, p)| s == name && !*p), "{name}");
    }
    // 30.14: Stanley's division (0627-0638) may put batteries in D and E,
    // so both lie near that line.
    for name in ["Redan D", "Redan E"] {
        let (h, _, _) = r.iter().find(|(_, s, _)| s == name).unwrap();
        let near = (27..=38)
            .any(|row| hex(&format!("06{row:02}")).is_some_and(|s| m.grid.distance(*h, s) <= 1));
        assert!(near, "{name} at {h}");
    }
    // 29.44: Union batteries set up in every redan, so none may be within
    // 4 hexes of an Assault Area (29.41).
    for (h, name, _) in &r {
        assert!(hex_allowed_29_41(&m, *h), "{name} at {h}");
    }
}

#[test]
fn corinth_23_21_redans_face_away_from_town() {
    // 23.21: the occupant sits on the inner side, the outer side faces the
    // enemy coming from the map edges; the rear is open towards Corinth.
    let m = map();
    let town = m.grid.to_hex(n("2637"));
    for (h, name, _) in redans(&m) {
        for (_, x) in m.grid.neighbours_on_map(h) {
            let redan = m.grid.hexside(h, x).is_some_and(|s| {
                m.side_has(s, SideKind::RedanPrimary) || m.side_has(s, SideKind::RedanSecondary)
            });
            if redan {
                let out = m.grid.to_hex(x).unsigned_distance_to(town);
                let inn = m.grid.to_hex(h).unsigned_distance_to(town);
                assert!(out >= inn, "{name}: outer hex {x} is nearer town");
            }
        }
    }
}

#[test]
fn corinth_23_1_outer_works_run_north_and_north_east_teeth_outward() {
    let m = map();
    let mut count = 0;
    for (side, features) in m.hexsides() {
        for f in features.iter().filter(|f| f.kind == SideKind::Works) {
            count += 1;
            let inner = f.side.unwrap();
            let outer = side.other(inner).unwrap();
            // Teeth face north and north-east: the outer hex is never
            // south of the inner one.
            assert!(outer.row() <= inner.row(), "{side}");
            // "several miles north and east of the town": all works are
            // in the northern third of the map.
            assert!(inner.row() <= 15, "{side}");
        }
    }
    assert!(count > 40, "a long line of works, found {count} hexsides");
    // 29.41 example: 2802 is just inside the works.
    assert!(inside_outer_works(&m, n("2802")));
    // 30.13: McArthur's brigade holds the works west of town.
    for h in ["0310", "0409", "0509", "0608", "0708"] {
        assert!(inside_outer_works(&m, n(h)), "{h}");
    }
    // 23.1: "crossed at several points by ... roads".
    let crossings = m
        .hexsides()
        .filter(|(_, f)| {
            f.iter().any(|x| x.kind == SideKind::Works)
                && f.iter().any(|x| x.kind == SideKind::Road)
        })
        .count();
    assert!(crossings >= 2, "{crossings}");
}

#[test]
fn corinth_23_5_swamp_on_the_union_right() {
    let m = map();
    let swamp: Vec<_> = m.hexes().filter(|(_, i)| i.has(Terrain::Swamp)).collect();
    assert!(swamp.len() >= 10);
    for (h, info) in &swamp {
        assert_eq!(info.terrain.len(), 1, "{h}");
        // The Union right (north-east of town) per the essay.
        assert!(h.col() > 27 && h.row() < 34, "{h}");
    }
}

#[test]
fn corinth_29_1_seven_assault_areas_on_the_map_edge() {
    let m = map();
    for a in ASSAULT_AREAS {
        let hexes = m.area(a).unwrap_or_else(|| panic!("{a} missing"));
        assert!(hexes.len() >= 5, "{a}");
        for h in hexes {
            assert!(is_map_edge(&m, *h), "{a}: {h}");
        }
    }
    // "hex 2501 is an entry hex for both Areas A and B".
    assert!(m.area("assault-a").unwrap().contains(&n("2501")));
    assert!(m.area("assault-b").unwrap().contains(&n("2501")));
    // No area is outside the outer works' inner side.
    for a in ASSAULT_AREAS {
        for h in m.area(a).unwrap() {
            assert!(!inside_outer_works(&m, *h), "{a}: {h}");
        }
    }
}

fn place(id: &str, h: &str) -> Placement {
    Placement {
        counter: CounterId::parse(id).unwrap(),
        hex: n(h),
    }
}

#[test]
fn corinth_29_41_no_union_unit_within_4_hexes_of_an_assault_area() {
    let m = map();
    // The rule's own examples.
    assert!(hex_allowed_29_41(&m, n("0527")));
    assert!(!hex_allowed_29_41(&m, n("0426")));
    assert_eq!(distance_to_assault_areas(&m, n("0426")), Some(4));
    assert_eq!(distance_to_assault_areas(&m, n("0527")), Some(5));
    // The exception: within 4 hexes but just inside the works.
    assert!(distance_to_assault_areas(&m, n("2802")).is_some_and(|d| d <= 4));
    assert!(hex_allowed_29_41(&m, n("2802")));
    // A whole set-up is checked at once; each breach names its counter.
    let setup = [
        place("robinett", "1934"),
        place("d-1-mo", "0527"),
        place("52-ill", "2802"),
        place("27-ohio", "0426"),
        place("7-kans-cav", "2603"),
    ];
    let v = check_29_41(&m, &setup);
    assert_eq!(v.len(), 2, "{v:?}");
    assert!(
        matches!(&v[0], SetupViolation::NearAssaultArea { counter, distance: 4, .. } if counter.0 == "27-ohio")
    );
    assert!(
        matches!(&v[1], SetupViolation::NearAssaultArea { counter, .. } if counter.0 == "7-kans-cav")
    );
    assert!(v[0].to_string().contains("0426"));
    // Off the map is refused, never a panic.
    let off = check_29_41(&m, &[place("x", "4050")]);
    assert!(matches!(off[..], [SetupViolation::OffMap { .. }]));
}

#[test]
fn corinth_29_41_every_hex_near_an_area_is_refused_unless_inside_the_works() {
    let m = map();
    let mut allowed = 0;
    for (h, _) in m.hexes() {
        let d = distance_to_assault_areas(&m, h).unwrap();
        let ok = hex_allowed_29_41(&m, h);
        assert_eq!(ok, d > 4 || inside_outer_works(&m, h), "{h}");
        allowed += usize::from(ok);
    }
    // Room enough for the Union army (29.42: 11 brigades and their guns).
    assert!(allowed > 800, "{allowed}");
}

#[test]
fn corinth_29_42_tishomingo_ring_and_assault_fronts_have_room() {
    // 29.42: 3 brigades within 10 hexes of 2437 (the hotel hex not
    // counted) and 4-7 within 10 hexes of an Assault Area, all legal.
    let m = map();
    let hotel = n(TISHOMINGO_HOTEL);
    let ring = m
        .hexes()
        .filter(|(h, _)| *h != hotel && m.grid.distance(*h, hotel) <= 10)
        .filter(|(h, _)| hex_allowed_29_41(&m, *h))
        .count();
    assert!(ring > 100, "{ring}");
    let front = m
        .hexes()
        .filter(|(h, _)| distance_to_assault_areas(&m, *h).is_some_and(|d| (5..=10).contains(&d)))
        .count();
    assert!(front > 100, "{front}");
    // 29.41/29.42: the hotel ring does not touch any Assault Area.
    assert!(distance_to_assault_areas(&m, hotel).is_some_and(|d| d > 14));
}

#[test]
fn corinth_29_47_and_30_13_arrival_hexes_are_on_the_map_edge() {
    let m = map();
    // 2745 (UnionBd) and 3937 (18 Mo, 5 Iowa), 0104 (Oliver, 30.13).
    for h in ["2745", "3937", "0104"] {
        assert!(is_map_edge(&m, n(h)), "{h}");
    }
    // Reinforcements enter in column: a road leads in from each.
    for h in ["2745", "3937"] {
        let reach = connected_by(&m, n(h), SideKind::Road);
        assert!(reach.contains(&n("2737")), "{h} reaches town by road");
    }
    // 30.13: Oliver must keep moving until more than 4 hexes from the
    // nearest area: 0104 is near one.
    assert!(distance_to_assault_areas(&m, n("0104")).is_some_and(|d| d <= 4));
}

#[test]
fn corinth_30_1_historical_set_up_hexes_are_on_the_map() {
    let m = map();
    let named = [
        "0310", "0409", "0509", "0608", "0708", // McArthur 30.13
        "0819", "0820", "0821", "0822", // Crocker 30.13
        "0627", "0638", // Stanley 30.14
        "2634", "0137", "3140", "1817", // Mizner 30.15
        "2437", "2637", "2636", "2737", // 30.12, 30.16, 30.17
    ];
    for h in named {
        let info = m.hex(n(h)).unwrap_or_else(|| panic!("{h} off the map"));
        // Cavalry sets up mounted (30.1): never in swamp (23.5).
        assert!(!info.has(Terrain::Swamp), "{h}");
    }
    // 30.12: Davies deploys along the road from 1605 to 2507.
    let road = connected_by(&m, n("1605"), SideKind::Road);
    assert!(road.contains(&n("2507")));
    // 30.11: Hamilton's box, hexrows 2500-3200 on or north of xx08, south
    // of the works: every column has room inside the works.
    let inside = inside_the_works(&m);
    for col in 25..=32u8 {
        let room = (1..=8u8)
            .filter_map(|r| crate::gbacw::map::HexNumber::new(col, r))
            .filter(|h| inside.contains(h))
            .count();
        assert!(room >= 3, "column {col}: {room}");
    }
}

/// Hexes reached from the town without crossing an outer works hexside.
fn inside_the_works(m: &Map) -> BTreeSet<HexNumber> {
    let start = n("2737");
    let mut seen = BTreeSet::from([start]);
    let mut queue = VecDeque::from([start]);
    while let Some(h) = queue.pop_front() {
        for (_, next) in m.grid.neighbours_on_map(h) {
            let works = m
                .grid
                .hexside(h, next)
                .is_some_and(|s| m.side_has(s, SideKind::Works));
            if !works && seen.insert(next) {
                queue.push_back(next);
            }
        }
    }
    seen
}

#[test]
fn corinth_23_1_the_works_close_off_the_north_and_east() {
    // The works run unbroken from the west edge to the east edge: no Assault
    // Area hex can be reached from town without crossing them, except the
    // late areas on the flanks away from the works (F).
    let m = map();
    let inside = inside_the_works(&m);
    for a in [
        "assault-a",
        "assault-b",
        "assault-c",
        "assault-d",
        "assault-g",
    ] {
        for h in m.area(a).unwrap() {
            assert!(!inside.contains(h), "{a}: {h} is inside the works");
        }
    }
    assert!(inside.contains(&n("2802")));
    assert!(!inside.contains(&n("2801")));
}

#[test]
fn corinth_31_0_roads_to_the_named_places_leave_the_map() {
    let m = map();
    let network = connected_by(&m, n("2737"), SideKind::Road);
    let exits = network.iter().filter(|h| is_map_edge(&m, **h)).count();
    // Chewalla, Columbus, Purdy, Kossuth, Smith's Bridge, Farmington,
    // Danville, Hamburg.
    assert!(exits >= 8, "{exits}");
}
