//! Every cell of `tables.toml` against a second, independent transcription
//! of `shared/rules/gbacw/tables.md` typed here.

use super::*;

pub(crate) const TABLES: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../assets/gbacw/tables.toml"
));

fn tables() -> Tables {
    Tables::load(TABLES).unwrap_or_else(|e| panic!("tables.toml: {e}"))
}

fn rendered<T: std::fmt::Display, const C: usize>(rows: &[[T; C]]) -> Vec<Vec<String>> {
    rows.iter()
        .map(|r| r.iter().map(|c| c.to_string()).collect())
        .collect()
}

fn words(rows: &[&str]) -> Vec<Vec<String>> {
    rows.iter()
        .map(|r| r.split_whitespace().map(str::to_string).collect())
        .collect()
}

#[test]
fn case_9_16_fire_crt_matches_transcription() {
    let t = tables();
    let expected = words(&[
        "-   -   -   -   P   R   P/R 1   1   1   1*",
        "-   -   -   P   R   P/R 1   1   1   1*  2*",
        "-   -   P   R   P/R 1   1   1   1*  2*  2*",
        "-   P   R   P/R 1   1   1   1*  2*  2*  2*",
        "-   P/R P/R 1   1   1   1*  2*  2*  2*  3*",
        "P/R 1   1   1*  1*  1*  2*  2*  2*  3*  3*",
    ]);
    assert_eq!(rendered(&t.fire.rows), expected);
    assert_eq!(
        t.fire.grapeshot_from,
        [4, 9, 12, 16, 22, 29, 36, 44, 53, 63]
    );
    assert_eq!(
        t.fire.small_arms_from,
        [1, 4, 7, 11, 15, 21, 28, 35, 43, 51]
    );
}

#[test]
fn case_9_14_grapeshot_and_small_arms_rows_pick_columns() {
    let f = tables().fire;
    // Grapeshot: "3 or less" is column 1, "63+" column 11.
    assert_eq!(f.column(FireRow::Grapeshot, 3), 0);
    assert_eq!(f.column(FireRow::Grapeshot, 4), 1);
    assert_eq!(f.column(FireRow::Grapeshot, 40), 7);
    assert_eq!(f.column(FireRow::Grapeshot, 500), 10);
    // Small arms: "0 or less", 1-3, 4-6 ...
    assert_eq!(f.column(FireRow::SmallArmsAndCounterBattery, 0), 0);
    assert_eq!(f.column(FireRow::SmallArmsAndCounterBattery, 3), 1);
    assert_eq!(f.column(FireRow::SmallArmsAndCounterBattery, 51), 10);
}

#[test]
fn case_9_51_shifts_clamp_at_the_table_ends() {
    let f = tables().fire;
    assert_eq!(FireCrt::shifted(0, -2), 0);
    assert_eq!(FireCrt::shifted(10, 2), 10);
    assert_eq!(FireCrt::shifted(5, -2), 3);
    assert_eq!(
        f.result(10, 6),
        Some(FireResult::Loss {
            points: 3,
            then_pin_check: true
        })
    );
    assert_eq!(f.result(0, 0), None);
    assert_eq!(f.result(11, 1), None);
}

#[test]
fn case_8_35_density_chart_matches_transcription() {
    let d = tables().density;
    let shifts: Vec<i8> = [1, 2, 3, 6, 7, 9, 10, 40]
        .iter()
        .map(|p| d.shift(*p))
        .collect();
    assert_eq!(shifts, [-1, -1, 0, 0, 1, 1, 2, 2]);
    // A lone leader (0 points) uses the first column.
    assert_eq!(d.shift(0), -1);
}

#[test]
fn case_8_23_three_four_point_units_shift_two_right() {
    // 8.23's example: three units of 4 points make a 12-point stack.
    assert_eq!(tables().density.shift(12), 2);
}

#[test]
fn case_11_34_ammo_loss_table_matches_transcription() {
    let t = tables();
    let expected = words(&[
        "0/1 1/2 2/3",
        "1/2 2/3 3/4",
        "2/4 3/5 4/6",
        "2/5 3/6 4/8",
        "2/6 3/8 4/E",
        "3/8 4/E WE",
    ]);
    assert_eq!(rendered(&t.ammo_loss.rows), expected);
    assert_eq!(t.ammo_loss.result(3, 6), Some(AmmoLoss::WagonEliminated));
    assert_eq!(t.ammo_loss.result(4, 1), None);
}

#[test]
fn case_12_98_melee_crt_matches_transcription() {
    let t = tables();
    let expected = words(&[
        "R2/-   Rpls/Rpls Eng/Eng K/C1R2 -/C1R2 -/C1R2 -/C1R3 -/C2R3 -/C2R3 -/C2R3 -/C2R3",
        "C1R2/- R2/- Rpls/Rpls Eng/Eng K/C1R2 -/R2 -/C1R2 K/C1R2 -/C2R2 -/C2R2 -/C2R2",
        "C1R2/- C1R2/- R2/- Rpls/Rpls Eng/Eng K/C1R2 -/C1R2 -/C1R2 K/C1R2 -/C2R2 -/C2R2",
        "C1R2/- C1R2/- C1R2/- R2/- Rpls/Rpls Eng/Eng K/C1R2 -/C1R2 -/C1R2 K/C1R2 -/C1R2",
        "C2R2/- C2R2/- C1R2/- C1R2/- R2/- Rpls/Rpls Eng/Eng K/C1R2 -/C1R2 -/C1R2 K/C1R2",
        "C3R3/- C3R2/- C2R2/- C1R2/- C1R2/- C1R2/- Rpls/Rpls Eng/Eng K/C1R2 -/C1R2 -/C1R2",
    ]);
    assert_eq!(rendered(&t.melee.rows), expected);
}

#[test]
fn case_12_0_differentials_clamp_to_the_table() {
    let m = tables().melee;
    // 12.98 note: below -4 use -4; above +6 use +6 (12.0's "+7" has no column).
    assert_eq!(m.result(-9, 6), m.result(-4, 6));
    assert_eq!(m.result(7, 1), m.result(6, 1));
    assert_eq!(
        m.result(0, 2).map(|r| r.to_string()).as_deref(),
        Some("K/C1R2")
    );
    assert_eq!(m.result(0, 7), None);
}

#[test]
fn case_13_15_seeing_the_elephant_matches_transcription() {
    let e = tables().elephant;
    let by_roll: Vec<u8> = (2..=12).map(|r| e.morale(r).unwrap()).collect();
    assert_eq!(by_roll, [4, 3, 1, 4, 2, 3, 1, 3, 2, 5, 4]);
    assert_eq!(e.morale(1), None);
    assert_eq!(e.morale(13), None);
}

#[test]
fn case_17_76_leader_casualty_table_matches_transcription() {
    let t = tables().leader_casualty;
    use CasualtyCause::*;
    use LeaderLoss::*;
    let expected: [(CasualtyCause, &[(u8, LeaderLoss)]); 5] = [
        (KMelee, &[(2, Killed), (6, Wounded), (12, Killed)]),
        (SmallArms, &[(2, Killed), (5, Wounded), (12, Killed)]),
        (Artillery, &[(2, Killed), (3, Wounded)]),
        (CMelee, &[(2, Captured), (3, Captured), (4, Captured)]),
        (RplsMelee, &[(2, Wounded), (12, Killed)]),
    ];
    for (cause, hits) in expected {
        let found: Vec<(u8, LeaderLoss)> = (2..=12)
            .filter_map(|r| t.result(cause, r).map(|l| (r, l)))
            .collect();
        assert_eq!(found, hits, "{cause}");
    }
}

fn load_err(from: &str, to: &str) -> crate::gbacw::text::TextError {
    assert!(TABLES.contains(from), "fixture `{from}` not in tables.toml");
    Tables::load(&TABLES.replacen(from, to, 1)).unwrap_err()
}

#[test]
fn broken_tables_are_refused_with_a_position() {
    let e = load_err(
        "\"P/R\", \"1\",   \"1\",   \"1*\"",
        "\"P/R\", \"1\",   \"1\",   \"X*\"",
    );
    assert!(e.message.contains("found `X*`"), "{e}");
    assert!(e.line > 1 && e.column > 1, "{e}");

    let e = load_err("\"3/8\", \"4/E\", \"WE\"],", "\"3/8\", \"4/E\"],");
    assert!(e.message.contains("expected 3 cells"), "{e}");

    let e = load_err(
        "morale = [4, 3, 1, 4, 2, 3, 1, 3, 2, 5, 4]",
        "morale = [4, 3, 1, 4, 2, 3, 1, 3, 2, 5]",
    );
    assert!(e.message.contains("expected 11 values"), "{e}");

    let e = load_err("morale = [4, 3, 1, 4", "morale = [9, 3, 1, 4");
    assert!(e.message.contains("1 to 5"), "{e}");

    let e = load_err("captured = [2, 3, 4]", "captured = [2, 3, 4, 2]");
    assert!(e.message.contains("twice"), "{e}");

    let e = load_err("[leader-casualty.artillery]", "[leader-casualty.cannon]");
    assert!(e.message.contains("unknown cause"), "{e}");

    let e = load_err("\"-/C2R3\"],  # die 1", "\"-/C2Q3\"],  # die 1");
    assert!(e.message.contains("ATTACKER/DEFENDER"), "{e}");
}
