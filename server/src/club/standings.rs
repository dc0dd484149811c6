//! Standings from results, as a pure function, and their CSV export.
//!
//! Swiss tiebreaks, in order: event points; Buchholz (the sum of the
//! points of every opponent met; a bye adds nothing); the sum of the
//! player's victory-point margins. Players equal on all three share a rank.

use muster_shared::protocol::UserId;
use muster_shared::protocol::club::{GameResult, StandingRow};
use std::collections::BTreeMap;

/// One game as standings see it: who sat in each seat, and its result
/// (unfinished games count for nothing yet). A bye is a game with seat 1
/// empty.
pub struct Played<'a> {
    pub seats: [Option<UserId>; 2],
    pub result: Option<&'a GameResult>,
}

#[derive(Default, Clone)]
struct Tally {
    points: u32,
    margin: i64,
    games: u32,
    opponents: Vec<UserId>,
}

/// The standings of `players` (id and name, in registration order) after `games`.
pub fn standings<'a>(
    players: &[(UserId, String)],
    games: impl IntoIterator<Item = Played<'a>>,
) -> Vec<StandingRow> {
    let mut t: BTreeMap<UserId, Tally> = players
        .iter()
        .map(|(u, _)| (*u, Tally::default()))
        .collect();
    for g in games {
        let Some(r) = g.result else { continue };
        for (i, seat) in g.seats.iter().enumerate() {
            let Some(u) = seat else { continue };
            let Some(me) = t.get_mut(u) else { continue };
            me.points = me.points.saturating_add(r.points[i]);
            let m = i64::from(r.vp_margin);
            me.margin = me.margin.saturating_add(if i == 0 { m } else { -m });
            me.games += 1;
            if let Some(o) = g.seats[1 - i] {
                me.opponents.push(o);
            }
        }
    }
    let mut rows: Vec<StandingRow> = players
        .iter()
        .map(|(u, name)| {
            let me = &t[u];
            let buchholz = me
                .opponents
                .iter()
                .map(|o| t.get(o).map_or(0, |x| x.points))
                .fold(0u32, u32::saturating_add);
            StandingRow {
                rank: 0,
                user: *u,
                name: name.clone(),
                points: me.points,
                buchholz,
                vp_margin: me.margin,
                games: me.games,
            }
        })
        .collect();
    let key = |r: &StandingRow| (r.points, r.buchholz, r.vp_margin);
    // Stable: equal players keep registration order.
    rows.sort_by_key(|r| std::cmp::Reverse(key(r)));
    for i in 0..rows.len() {
        rows[i].rank = if i > 0 && key(&rows[i]) == key(&rows[i - 1]) {
            rows[i - 1].rank
        } else {
            i as u32 + 1
        };
    }
    rows
}

/// The standings as CSV (RFC 4180): a header line, then one line per
/// player. Names are quoted, and a name a spreadsheet would run as a
/// formula (starting `=`, `+`, `-`, `@`) is prefixed with `'`.
pub fn csv(rows: &[StandingRow]) -> String {
    let mut out = String::from("rank,name,points,buchholz,vp_margin,games\r\n");
    for r in rows {
        let mut name = r.name.clone();
        if name.starts_with(['=', '+', '-', '@']) {
            name.insert(0, '\'');
        }
        out.push_str(&format!(
            "{},\"{}\",{},{},{},{}\r\n",
            r.rank,
            name.replace('"', "\"\""),
            r.points,
            r.buchholz,
            r.vp_margin,
            r.games
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use muster_shared::protocol::club::ResultHow;

    fn res(points: [u32; 2], vp_margin: i32) -> GameResult {
        GameResult {
            points,
            vp_margin,
            how: ResultHow::Adjudicated {
                reason: "test".into(),
            },
        }
    }

    #[test]
    fn buchholz_breaks_a_tie_then_the_margin() {
        let p = |i: u64, n: &str| (UserId(i), n.to_string());
        let players = vec![p(1, "A"), p(2, "B"), p(3, "C"), p(4, "D")];
        // Round 1: A beats B (+3), C beats D (+1). Round 2: A beats C, B beats D.
        let r = [
            res([2, 0], 3),
            res([2, 0], 1),
            res([2, 0], 2),
            res([2, 0], 5),
        ];
        let games = vec![
            Played {
                seats: [Some(UserId(1)), Some(UserId(2))],
                result: Some(&r[0]),
            },
            Played {
                seats: [Some(UserId(3)), Some(UserId(4))],
                result: Some(&r[1]),
            },
            Played {
                seats: [Some(UserId(1)), Some(UserId(3))],
                result: Some(&r[2]),
            },
            Played {
                seats: [Some(UserId(2)), Some(UserId(4))],
                result: Some(&r[3]),
            },
        ];
        let s = standings(&players, games);
        let names: Vec<&str> = s.iter().map(|r| r.name.as_str()).collect();
        // A 4; B and C 2 each: B's opponents A(4)+D(0)=4, C's D(0)+A(4)=4;
        // margins B -3+5=2, C 1-2=-1: B ahead.
        assert_eq!(names, ["A", "B", "C", "D"]);
        assert_eq!((s[1].points, s[1].buchholz, s[1].vp_margin), (2, 4, 2));
        assert_eq!((s[2].points, s[2].buchholz, s[2].vp_margin), (2, 4, -1));
        let text = csv(&s);
        assert!(
            text.starts_with("rank,name,points,buchholz,vp_margin,games\r\n1,\"A\",4,4,5,2\r\n"),
            "{text}"
        );
    }

    #[test]
    fn csv_quotes_names_and_defuses_formulas() {
        let row = StandingRow {
            rank: 1,
            user: UserId(1),
            name: "=cmd \"x\"".into(),
            points: 0,
            buchholz: 0,
            vp_margin: 0,
            games: 0,
        };
        assert_eq!(
            csv(&[row]).lines().nth(1),
            Some("1,\"'=cmd \"\"x\"\"\",0,0,0,0")
        );
    }
}
