//! A player for the UI-only play-throughs: it looks at the board (the
//! engine's state and legal actions, as a person reads the screen),
//! chooses, and acts only through `play::Clicker` (clicks and keys).
//! It seeks the enemy, fires, melees and rallies when it can, and
//! answers every decision with the answers it has not given yet first.

use super::play::{Clicker, kind_of, legal_now, rules, seq, state};
use egui_kittest::Harness;
use muster_client::app::gbacw::GbacwApp;
use muster_shared::gbacw::map::HexNumber;
use muster_shared::gbacw::oob::CounterId;
use muster_shared::gbacw::ruleset::{GbacwAction, GbacwState};
use muster_shared::gbacw::sequence::{Phase, Step};
use std::collections::BTreeSet;

/// How many units a side moves by hand in one Movement Phase (the rest
/// stay: the play-through is about reaching every kind of order, not
/// about moving a whole army by clicks).
pub const MOVES_PER_PHASE: usize = 12;

#[derive(Default)]
pub struct Bot {
    pub c: Clicker,
    /// Actions tried and not taken at this log position (never retried).
    failed: BTreeSet<(u64, String)>,
    /// Units moved (or ordered) in the current phase, keyed by the
    /// phase's first entry.
    done: BTreeSet<CounterId>,
    phase_key: Option<(u16, Step)>,
    moves: usize,
    /// Placements by hand before the default deployment.
    pub placements: usize,
    /// Every action kind the acting seat was offered, seen while playing.
    pub offered: BTreeSet<&'static str>,
    /// Actions taken in all.
    pub actions: usize,
    /// Refusals and misses, for the test's message.
    pub misses: Vec<String>,
    /// At most this many arrivals brought in by hand per phase (`None`:
    /// every one due). The rest wait off the map, as 26.45 lets them: a
    /// play-through that must reach contact spends its clicks on the
    /// front, not on a column of eighty counters.
    pub arrivals_per_phase: Option<usize>,
    arrived: usize,
    /// "Bring them all in" was clicked this phase.
    brought_all: bool,
    /// The melees, rallies and retreat choices taken, each checked
    /// against the engine's state right after (`check_after`).
    pub checked: Vec<String>,
}

impl Bot {
    /// A player who must reach the enemy (issue 18's Corinth
    /// play-throughs: a melee, a rally and a retreat choice): a few
    /// arrivals a phase, the rest of the clicks on the front.
    pub fn seeking_contact() -> Bot {
        Bot {
            arrivals_per_phase: Some(ARRIVALS_SEEKING_CONTACT),
            ..Bot::default()
        }
    }
}

/// Arrivals brought in by hand each phase (tray row, then a hex) before
/// a player who brings every one in clicks "Bring them all in".
pub const BY_HAND_BEFORE_BRINGING_ALL: usize = 2;

/// Arrivals brought in per phase by [`Bot::seeking_contact`].
pub const ARRIVALS_SEEKING_CONTACT: usize = 6;

/// The hexes holding units not of `side` (each once).
fn enemy_hexes(h: &Harness<'_, GbacwApp>, side: &CounterId) -> Vec<HexNumber> {
    let (r, s) = (rules(h), state(h));
    let oob = &r.game().oob;
    let hexes: BTreeSet<HexNumber> = s
        .units
        .iter()
        .filter(|(u, _)| oob.units[*u].side != *side)
        .filter_map(|(_, u)| u.hex)
        .collect();
    hexes.into_iter().collect()
}

/// The distance from `from` to the nearest of `enemies`.
fn nearest(h: &Harness<'_, GbacwApp>, from: HexNumber, enemies: &[HexNumber]) -> u32 {
    let grid = &rules(h).game().map.grid;
    enemies
        .iter()
        .map(|e| grid.distance(from, *e))
        .min()
        .unwrap_or(u32::MAX)
}

impl Bot {
    /// Take one action by clicks; false when nothing could be done (the
    /// game is over or nobody acts).
    pub fn step(&mut self, h: &mut Harness<'_, GbacwApp>) -> bool {
        let clock = state(h).clock;
        if self.phase_key != Some((clock.turn, clock.step)) {
            self.phase_key = Some((clock.turn, clock.step));
            self.done.clear();
            self.moves = 0;
            self.arrived = 0;
            self.brought_all = false;
        }
        let legal = legal_now(h);
        if legal.is_empty() || state(h).over {
            return false;
        }
        for a in &legal {
            self.offered.insert(kind_of(a));
        }
        let at = seq(h);
        let words = |h: &Harness<'_, GbacwApp>, a: &GbacwAction| {
            use muster_client::app::narrate::Narrate;
            rules(h).describe_action(a)
        };
        let fresh = |b: &Bot, h: &Harness<'_, GbacwApp>, a: &GbacwAction| {
            !b.failed.contains(&(at, words(h, a)))
        };
        let mut choice: Option<GbacwAction> = None;
        // A decision waiting: an answer not given before first.
        if state(h).decision.is_some()
            || !muster_shared::engine::Ruleset::pending(rules(h), state(h)).is_empty()
        {
            let answers: Vec<&GbacwAction> = legal
                .iter()
                .filter(|a| !muster_client::app::gbacw::tray::is_tray_action(a))
                .filter(|a| fresh(self, h, a))
                .collect();
            choice = answers
                .iter()
                .find(|a| !self.c.produced.contains_key(kind_of(a)))
                .or(answers.first())
                .map(|a| (*a).clone());
        }
        let setting_up = state(h).progress.setting_up.is_some();
        if choice.is_none() && setting_up {
            // A leader and a unit or two by hand (the tray), the rest by
            // the default deployment.
            choice = if self.placements < 3 {
                let leader = !self.c.produced.contains_key("PlaceLeader");
                legal
                    .iter()
                    .filter(|a| leader && matches!(a, GbacwAction::PlaceLeader { .. }))
                    .chain(
                        legal
                            .iter()
                            .filter(|a| matches!(a, GbacwAction::PlaceUnit { .. })),
                    )
                    .find(|a| fresh(self, h, a))
                    .cloned()
            } else {
                None
            }
            .or(Some(GbacwAction::EndSetUp));
        }
        let pick = |b: &Bot, h: &Harness<'_, GbacwApp>, f: &dyn Fn(&GbacwAction) -> bool| {
            legal
                .iter()
                .filter(|a| f(a) && fresh(b, h, a))
                .find(|a| !b.c.produced.contains_key(kind_of(a)))
                .or_else(|| legal.iter().find(|a| f(a) && fresh(b, h, a)))
                .cloned()
        };
        let done = self.done.clone();
        if choice.is_none()
            && self.arrivals_per_phase.is_none()
            && self.arrived >= BY_HAND_BEFORE_BRINGING_ALL
            && !self.brought_all
            && legal
                .iter()
                .any(|a| matches!(a, GbacwAction::Arrive { .. }))
        {
            // The rest as a player brings a column in: one button.
            self.brought_all = true;
            self.bring_all(h);
            return true;
        }
        if choice.is_none() && self.arrivals_per_phase.is_none_or(|n| self.arrived < n) {
            choice = pick(self, h, &|a| matches!(a, GbacwAction::Arrive { .. }));
        }
        if choice.is_none() {
            // Fire, melee, charge, rally: once per unit and phase.
            choice = pick(self, h, &|a| match a {
                GbacwAction::DeclareFire { firers, .. } => {
                    firers.len() == 1 && !done.contains(&firers[0].unit)
                }
                GbacwAction::DeclareMelee { attackers, .. }
                | GbacwAction::DeclareCharge { attackers, .. } => {
                    !attackers.iter().any(|u| done.contains(u))
                }
                GbacwAction::Rally { unit } => !done.contains(unit),
                _ => false,
            });
        }
        if choice.is_none() {
            // Orders the play-through has not given yet (command points,
            // a facing, a formation, a resupply…), once each.
            choice = legal
                .iter()
                .filter(|a| {
                    matches!(
                        a,
                        GbacwAction::SpendCommandPoints { .. }
                            | GbacwAction::Resupply { .. }
                            | GbacwAction::Face { .. }
                            | GbacwAction::ChangeFormation { .. }
                            | GbacwAction::TransferRounds { .. }
                            | GbacwAction::CancelFire { .. }
                            | GbacwAction::Attach { .. }
                            | GbacwAction::Detach { .. }
                            | GbacwAction::ExitMap { .. }
                            | GbacwAction::WithdrawEngaged { .. }
                            | GbacwAction::RapidFire { .. }
                            | GbacwAction::DeclareCharge { .. }
                            | GbacwAction::CommitReserve { .. }
                            | GbacwAction::SolitaireRoll
                            | GbacwAction::PlotAssault { .. }
                    )
                })
                .filter(|a| fresh(self, h, a))
                .find(|a| !self.c.produced.contains_key(kind_of(a)))
                .cloned();
        }
        if choice.is_none()
            && self.moves < MOVES_PER_PHASE
            && legal.iter().any(|a| matches!(a, GbacwAction::Move { .. }))
        {
            choice = self.a_move(h, &legal, at);
        }
        let choice = choice.unwrap_or(GbacwAction::EndPhase);
        let before = self.c.clicks;
        let before_state = state(h).clone();
        let took = self.c.perform(h, &choice);
        if took {
            self.actions += 1;
            self.check_after(h, &before_state, &choice);
            if matches!(choice, GbacwAction::Arrive { .. }) {
                self.arrived += 1;
            }
            if matches!(
                choice,
                GbacwAction::PlaceUnit { .. } | GbacwAction::PlaceLeader { .. }
            ) {
                self.placements += 1;
            }
            match &choice {
                GbacwAction::Move { pieces, .. } => {
                    self.moves += 1;
                    self.done.extend(pieces.iter().cloned());
                }
                GbacwAction::DeclareFire { firers, .. } => {
                    self.done.extend(firers.iter().map(|f| f.unit.clone()));
                }
                GbacwAction::DeclareMelee { attackers, .. }
                | GbacwAction::DeclareCharge { attackers, .. } => {
                    self.done.extend(attackers.iter().cloned());
                }
                GbacwAction::Rally { unit } => {
                    self.done.insert(unit.clone());
                }
                _ => {}
            }
        } else {
            let w = words(h, &choice);
            self.misses.push(format!(
                "{w}: {} ({} clicks)",
                self.c.last_miss.clone().unwrap_or_default(),
                self.c.clicks - before
            ));
            self.failed.insert((at, w));
            if let GbacwAction::Move { pieces, .. } = &choice {
                self.done.extend(pieces.iter().cloned());
            }
            // Clear any selection the miss left behind.
            h.state_mut().map.select(Vec::new());
            if matches!(choice, GbacwAction::EndPhase) {
                // As a player reads the refusal: "14 Wisc in 0104 is … (it
                // can reach 0202)": that unit is moved there, then End
                // phase again.
                let why = h.state().session.last_refusal.clone().unwrap_or_default();
                return self.obey(h, &why);
            }
        }
        true
    }

    /// A melee, rally or retreat choice the table took from a click,
    /// checked against the engine's state after it: the melee is
    /// declared (12.8) or offered to the defender, the retreat ended
    /// where its path does (14.4, 12.8), the stand fast ended the offer;
    /// a rally is recorded as tried, or the unit no longer routs (13.51).
    fn check_after(&mut self, h: &Harness<'_, GbacwApp>, before: &GbacwState, a: &GbacwAction) {
        let s = state(h);
        let what = match a {
            GbacwAction::DeclareMelee { attackers, .. } => {
                let GbacwAction::DeclareMelee { target, .. } = a else {
                    unreachable!()
                };
                let declared = s
                    .melees
                    .iter()
                    .any(|m| m.target == *target && m.attackers == *attackers)
                    || s.rbm.as_ref().is_some_and(|o| o.target == *target);
                assert!(declared, "melee at {target} not in the engine's state");
                format!("melee declared at {target}")
            }
            // GBACW 13.51: the engine recorded the try (a unit tries
            // once a phase), or the unit no longer routs; the roll is the
            // engine's to read (17.13).
            GbacwAction::Rally { unit } => {
                let routed = |st: &GbacwState| {
                    st.units.get(unit).is_some_and(|u| {
                        u.status
                            .markers
                            .contains(&muster_shared::gbacw::oob::Marker::Rout)
                    })
                };
                assert!(routed(before), "{unit} rallied but was not routed");
                assert!(
                    s.rally_tried.contains(unit) || !routed(s),
                    "the rally of {unit} left no trace in the engine's state"
                );
                format!(
                    "rally of {unit}: {}",
                    if routed(s) { "still routed" } else { "rallied" }
                )
            }
            GbacwAction::Retreat { unit, path } => {
                // Not always the path's end: a check failed at the end
                // of the retreat routs it farther (12.92, 13.31), and a
                // Corinth retreat may stop in its Assault Area (27.3).
                // It has left the hex it stood in, or is gone.
                let at = s.units.get(unit).and_then(|u| u.hex);
                let from = before.units.get(unit).and_then(|u| u.hex);
                assert!(
                    at.is_none() || at != from || path.last().copied() == from,
                    "{unit} retreated along {path:?} but stands at {at:?}"
                );
                format!("{unit} retreated to {:?}", path.last())
            }
            GbacwAction::RetreatBeforeMelee { units, path } => {
                // Where the units end is the engine's to say: Corinth's
                // mounted cavalry charged by mounted cavalry must check
                // first and may stay (22.32), and a check after may rout
                // them farther (13.31). The offer is answered.
                assert!(
                    s.rbm.as_ref() != before.rbm.as_ref() || s.rbm.is_none(),
                    "retreat before melee of {units:?} left the offer open"
                );
                format!("retreat before melee to {:?}", path.last())
            }
            GbacwAction::StandFast => {
                if before.rbm.is_some() {
                    assert!(s.rbm != before.rbm, "the stand fast left the offer open");
                }
                "stood fast".to_string()
            }
            _ => return,
        };
        self.checked.push(what);
    }

    /// Move the unit a refusal names to the hex it says it can reach.
    fn obey(&mut self, h: &mut Harness<'_, GbacwApp>, why: &str) -> bool {
        let Some(k) = why.find(" can reach ") else {
            return false;
        };
        let hex: String = why[k + 11..].chars().take(4).collect();
        let Some(to) = HexNumber::parse(&hex) else {
            return false;
        };
        // The counter named at the head of a part of the message ("14
        // Wisc in 0104 is …", "Cabell must end …").
        let st = state(h);
        let pieces: Vec<&CounterId> = st.units.keys().chain(st.leaders.keys()).collect();
        let unit = why.split(": ").find_map(|seg| {
            pieces
                .iter()
                .find(|u| {
                    let n = super::play::name(h, u);
                    seg.starts_with(&format!("{n} in ")) || seg.starts_with(&format!("{n} must "))
                })
                .map(|u| (*u).clone())
        });
        let Some(unit) = unit else { return false };
        let a = GbacwAction::Move {
            pieces: vec![unit],
            path: vec![to],
        };
        if self.c.perform(h, &a) {
            self.actions += 1;
            return true;
        }
        use muster_client::app::narrate::Narrate;
        self.misses.push(format!(
            "as the refusal says, {}: {}",
            rules(h).describe_action(&a),
            self.c.last_miss.clone().unwrap_or_default()
        ));
        h.state_mut().map.select(Vec::new());
        // Then as a player would: onto a friendly unit he can reach.
        let seat = rules(h).acting_seat(state(h));
        let joins = seat.map_or_else(Vec::new, |s| super::gbacw::leaders_to_join(h.state(), s));
        for a in joins {
            if self.c.perform(h, &a) {
                self.actions += 1;
                return true;
            }
            h.state_mut().map.select(Vec::new());
        }
        false
    }

    /// Click the arrivals tray's "Bring them all in" and let the table
    /// bring them in one after another (bounded); each arrival counts as
    /// an action by that click.
    fn bring_all(&mut self, h: &mut Harness<'_, GbacwApp>) {
        use muster_client::app::gbacw::tray::BRING_ALL;
        let before = seq(h);
        if !self.c.button(h, BRING_ALL, 0) {
            self.misses.push(format!("no {BRING_ALL:?} button"));
            return;
        }
        let mut last = (seq(h), std::time::Instant::now());
        for _ in 0..2000 {
            let arrivals_left = legal_now(h)
                .iter()
                .any(|a| matches!(a, GbacwAction::Arrive { .. }));
            if !arrivals_left || h.state().session.last_refusal.is_some() {
                break;
            }
            if seq(h) != last.0 {
                last = (seq(h), std::time::Instant::now());
            } else if last.1.elapsed() > std::time::Duration::from_secs(5) {
                break;
            }
            if !h.state().session.is_hot_seat() {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            super::kittest::settle(h);
        }
        let n = usize::try_from(seq(h) - before).unwrap_or(0);
        if let Some(r) = &h.state().session.last_refusal {
            self.misses.push(format!("{BRING_ALL}: {r}"));
        }
        self.actions += n;
        self.arrived += n;
        *self.c.produced.entry("Arrive").or_default() += n;
    }

    /// A unit of the acting side that has not moved this phase, to the
    /// hex of its reach nearest the enemy (a click on its counter and
    /// one on that hex; the UI moves it along the cheapest path).
    fn a_move(
        &mut self,
        h: &Harness<'_, GbacwApp>,
        legal: &[GbacwAction],
        _at: u64,
    ) -> Option<GbacwAction> {
        let movers: BTreeSet<CounterId> = legal
            .iter()
            .filter_map(|a| match a {
                GbacwAction::Move { pieces, .. } if pieces.len() == 1 => Some(pieces[0].clone()),
                _ => None,
            })
            .filter(|u| !self.done.contains(u))
            .filter(|u| state(h).units.contains_key(u))
            .collect();
        let (r, s) = (rules(h), state(h));
        let side = r.side_of(r.acting_seat(s)?).clone();
        let mut best: Option<(u32, CounterId, HexNumber)> = None;
        // Worked out once per choice, not per hex (the choice was most of
        // a play-through's time).
        let enemies = enemy_hexes(h, &side);
        let taken: BTreeSet<HexNumber> = s
            .units
            .values()
            .filter_map(|x| x.hex)
            .chain(s.leaders.values().filter_map(|x| x.hex))
            .collect();
        for u in movers {
            let Some(from) = s.units[&u].hex else {
                continue;
            };
            let Some(reach) = r.reachable(s, &u) else {
                continue;
            };
            let here = nearest(h, from, &enemies);
            for (to, _) in reach.hexes.iter() {
                // A click on a counter selects it: only empty hexes are
                // moved to by a click.
                if *to == from || taken.contains(to) {
                    continue;
                }
                let d = nearest(h, *to, &enemies);
                // Closer, and no farther than adjacent.
                if d < here && best.as_ref().is_none_or(|(b, _, _)| d < *b) {
                    best = Some((d, u.clone(), *to));
                }
            }
            if best.as_ref().is_some_and(|(d, _, _)| *d <= 1) {
                break;
            }
        }
        let Some((_, u, to)) = best else {
            // Nobody gets closer: moving on.
            self.moves = MOVES_PER_PHASE;
            return None;
        };
        Some(GbacwAction::Move {
            pieces: vec![u],
            path: vec![to],
        })
    }

    /// Play until `stop` says so (checked before each action), at most
    /// `max_actions` actions; returns whether `stop` was reached.
    pub fn play_until(
        &mut self,
        h: &mut Harness<'_, GbacwApp>,
        max_actions: usize,
        stop: &dyn Fn(&Harness<'_, GbacwApp>) -> bool,
    ) -> bool {
        for _ in 0..max_actions {
            if stop(h) {
                return true;
            }
            if self.actions.is_multiple_of(10) {
                self.c.texts_checked += super::play::assert_words_only(h, "playing");
            }
            if !self.step(h) {
                return stop(h);
            }
        }
        stop(h)
    }
}

/// True once the clock is past Game-Turn `turn`.
pub fn after_turn(h: &Harness<'_, GbacwApp>, turn: u16) -> bool {
    state(h).clock.turn > turn || state(h).over
}

/// Whether `step` is a phase of `phase`.
pub fn is_phase(step: Step, phase: Phase) -> bool {
    matches!(step, Step::Phase { phase: p, .. } if p == phase)
}
