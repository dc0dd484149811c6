//! Whose turn it is, said plainly: the "Your turn: ..." banner over the
//! map when this client's seat must act (what is asked, in words: a
//! pending decision's prompt from the engine, or the phase and what it
//! asks for), the window title ("Muster — Cedar Mountain — your move"),
//! a window attention request when it becomes this client's turn (once
//! per change, not every frame), and at a hot-seat table the view handed
//! to the seat that must act.
//!
//! The engine says who acts ([`Gbacw::acting_seat`]) and what waits
//! ([`muster_shared::engine::Ruleset::pending`]); nothing here decides a
//! rule.

use egui::{Color32, RichText, Ui};
use muster_shared::SeatId;
use muster_shared::engine::Ruleset;
use muster_shared::gbacw::ruleset::{Gbacw, GbacwAction, GbacwState};
use muster_shared::gbacw::sequence::{Phase, Step};
use muster_shared::gbacw::words;

/// The banner's first words, for tests and for players.
pub const YOUR_TURN: &str = "Your turn";

/// What the table asks of `seat` now, in words: the decision waiting on
/// it (the engine's prompt and case), or the acting side's phase and what
/// it is for. `seat` is assumed to be the acting seat.
/// `legal` is `seat`'s legal actions, as the app already holds them
/// (worked out once per log entry: the set-up's whole legal set is too
/// costly to work out again every frame).
pub fn asked(rules: &Gbacw, state: &GbacwState, seat: SeatId, legal: &[GbacwAction]) -> String {
    let side = words::side_name(rules, rules.side_of(seat));
    if let Some(d) = rules.pending(state).into_iter().find(|d| d.seat == seat) {
        // The tray's hint only when the seat places counters now (Corinth
        // 29.2's plot comes before the set-up and is answered in its panel).
        let places = legal.iter().any(|a| {
            matches!(
                a,
                GbacwAction::PlaceUnit { .. }
                    | GbacwAction::PlaceLeader { .. }
                    | GbacwAction::EndSetUp
            )
        });
        if state.progress.setting_up.is_some() && places {
            return format!(
                "{} - pick a counter in the Set-up tray and click a lit hex, or use the default \
                 deployment",
                d.prompt
            );
        }
        return format!(
            "{side}: {} ({}) - answer in the side panel",
            d.prompt, d.rule
        );
    }
    let step = step_words(rules, state);
    let what = match state.clock.step {
        Step::Phase { phase, .. } => match phase {
            Phase::InitialCommand => {
                "spend command points, attach or detach leaders (side panel), then End phase"
            }
            Phase::Movement => {
                "click a counter, then a lit hex to move it (arrivals come from the tray); \
                 End phase when done"
            }
            Phase::DefensiveFire | Phase::OffensiveFire => {
                "select a unit and declare its fire under Orders (side panel), then End phase"
            }
            Phase::RetreatBeforeMelee => {
                "select a unit and declare melees or charges under Orders, then End phase"
            }
            Phase::Melee => "the declared melees are resolved; End phase to go on",
            Phase::AmmunitionResupply => {
                "resupply and transfer rounds under Orders (side panel), then End phase"
            }
            Phase::Rally => "rally units under Orders (side panel), then End phase",
            Phase::FinalCommand => "replace fallen leaders under Orders, then End phase",
        },
        _ => "carry it out, then End phase",
    };
    format!("{side} {step}: {what}")
}

/// The step's name without its letter ("Movement Phase").
pub fn step_words(rules: &Gbacw, state: &GbacwState) -> String {
    match state.clock.step {
        Step::Phase { phase, .. } => phase.name().to_string(),
        step => rules.game().sequence.step_name(step),
    }
}

/// The banner's whole text for `seat`.
pub fn banner_text(
    rules: &Gbacw,
    state: &GbacwState,
    seat: SeatId,
    legal: &[GbacwAction],
) -> String {
    format!("{YOUR_TURN}: {}", asked(rules, state, seat, legal))
}

/// The banner's fixed height, the gold banner's own (its 16-point line
/// and margins): the quiet line, the replay's note and nothing at all
/// take the same room, so the map below never jumps (issue 18).
pub fn banner_height(ui: &Ui) -> f32 {
    ui.ctx()
        .fonts_mut(|f| f.row_height(&egui::FontId::proportional(BANNER_TEXT_SIZE)))
        + 8.0
}

/// The gold banner's text size.
const BANNER_TEXT_SIZE: f32 = 16.0;

/// Draw the banner: gold and loud when `mine`, a quiet line naming who
/// acts otherwise.
/// `seat_name` names the acting seat as everywhere else ("Union (Meade)").
pub fn banner(
    ui: &mut Ui,
    rules: &Gbacw,
    state: &GbacwState,
    mine: Option<SeatId>,
    legal: &[GbacwAction],
    seat_name: &dyn Fn(SeatId) -> String,
) {
    if state.over {
        ui.label(RichText::new("The game is over.").strong());
        return;
    }
    match (mine, rules.acting_seat(state)) {
        (Some(seat), Some(acting)) if seat == acting => {
            let text = banner_text(rules, state, seat, legal);
            egui::Frame::new()
                .fill(Color32::from_rgb(0xff, 0xd7, 0x00))
                .inner_margin(egui::Margin::symmetric(8, 4))
                .corner_radius(4.0)
                .show(ui, |ui| {
                    // One line, cut short with "…" (the whole on hover):
                    // the banner's height never changes (issue 18).
                    ui.add(
                        egui::Label::new(
                            RichText::new(text)
                                .strong()
                                .size(BANNER_TEXT_SIZE)
                                .color(Color32::BLACK),
                        )
                        .truncate(),
                    );
                });
        }
        (_, Some(acting)) => {
            let side = words::side_name(rules, rules.side_of(acting));
            let who = seat_name(acting);
            // A hot-seat table names the side alone: "the Union player".
            let who = if who == side {
                format!("the {side} player")
            } else {
                who
            };
            let step = match state.progress.setting_up {
                Some(_) => "set-up".to_string(),
                None => step_words(rules, state),
            };
            ui.add(
                egui::Label::new(RichText::new(format!("Waiting for {who} ({step})")).weak())
                    .truncate(),
            );
        }
        (_, None) => {}
    }
}

/// What changes once per turn change rather than every frame: the window
/// title, the attention request, the hot-seat hand-over.
#[derive(Default)]
pub struct TurnWatch {
    /// The title last sent.
    title: Option<String>,
    /// The seat whose turn was last announced (`None`: not this client's turn).
    announced: Option<SeatId>,
    /// The acting seat the hot-seat view last followed.
    followed: Option<SeatId>,
    /// How many times attention was asked for (for tests).
    pub attention_requests: u32,
}

impl TurnWatch {
    /// The title last sent to the window.
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// At a hot-seat table: the seat the view should switch to, when the
    /// acting seat changed since last asked.
    pub fn follow(&mut self, acting: Option<SeatId>) -> Option<SeatId> {
        if acting == self.followed {
            return None;
        }
        self.followed = acting;
        acting
    }

    /// Set the window title and ask for attention when it just became
    /// `mine`'s turn. `battle` is the battle's printed name. True when it
    /// just became this client's turn.
    pub fn update(&mut self, ctx: &egui::Context, battle: &str, mine: Option<SeatId>) -> bool {
        let mut became = false;
        let title = match mine {
            Some(_) => format!("Muster \u{2014} {battle} \u{2014} your move"),
            None => format!("Muster \u{2014} {battle}"),
        };
        if self.title.as_deref() != Some(title.as_str()) {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = Some(title);
        }
        if mine != self.announced {
            if mine.is_some() {
                ctx.send_viewport_cmd(egui::ViewportCommand::RequestUserAttention(
                    egui::UserAttentionType::Informational,
                ));
                self.attention_requests += 1;
                became = true;
            }
            self.announced = mine;
        }
        became
    }
}

/// Where to look for `seat`: the middle of its counters on the map (the
/// one nearest their mean), else of the hexes its legal placements and
/// arrivals go to (the set-up areas), else of every counter on the map.
pub fn focus_hex(
    rules: &Gbacw,
    state: &GbacwState,
    seat: Option<SeatId>,
    legal: &[muster_shared::gbacw::ruleset::GbacwAction],
) -> Option<muster_shared::gbacw::map::HexNumber> {
    use muster_shared::gbacw::ruleset::GbacwAction as A;
    // The Melee Phase is about the declared melees: the first comes into
    // view, not the acting side's army (issue 18: the hot-seat hand-over
    // showed the Union's units while the melee was off screen).
    if matches!(
        state.clock.step,
        Step::Phase {
            phase: Phase::Melee,
            ..
        }
    ) && let Some(m) = state.melees.first()
    {
        return Some(m.target);
    }
    let oob = &rules.game().oob;
    let side = seat.map(|s| rules.side_of(s));
    let mine = |c: &muster_shared::gbacw::oob::CounterId| {
        let of = oob
            .units
            .get(c)
            .map(|u| &u.side)
            .or_else(|| oob.leaders.get(c).map(|l| &l.side));
        side.is_none() || of == side
    };
    let on_map = |only_mine: bool| -> Vec<_> {
        state
            .units
            .iter()
            .filter_map(|(c, u)| Some((c, u.hex?)))
            .chain(state.leaders.iter().filter_map(|(c, l)| Some((c, l.hex?))))
            .filter(|(c, _)| !only_mine || mine(c))
            .map(|(_, h)| h)
            .collect()
    };
    let mut hexes = on_map(true);
    if hexes.is_empty() {
        hexes = legal
            .iter()
            .filter_map(|a| match a {
                A::PlaceUnit { hex, .. } | A::PlaceLeader { hex, .. } | A::Arrive { hex, .. } => {
                    Some(*hex)
                }
                _ => None,
            })
            .collect();
    }
    if hexes.is_empty() {
        hexes = on_map(false);
    }
    let n = hexes.len() as f32;
    if n == 0.0 {
        return None;
    }
    let mc = hexes.iter().map(|h| f32::from(h.col())).sum::<f32>() / n;
    let mr = hexes.iter().map(|h| f32::from(h.row())).sum::<f32>() / n;
    hexes.into_iter().min_by(|a, b| {
        let d = |h: &muster_shared::gbacw::map::HexNumber| {
            (f32::from(h.col()) - mc).abs() + (f32::from(h.row()) - mr).abs()
        };
        d(a).total_cmp(&d(b))
    })
}
