//! A ruleset bug that an action's bytes find must not take the table down:
//! `Match::apply` turns a panic in `rolls_dice` or `decide` into an
//! `Internal` refusal and changes nothing (the whole-game tests' mutated
//! actions found two such bugs in GBACW, fixed since; this guards the
//! next one).

use muster_shared::dice::{HashChain, Party, SeatLink};
use muster_shared::engine::log::LOG_FORMAT;
use muster_shared::engine::{
    ActionContext, Dice, LogHeader, Match, MatchError, RuleCode, RuleError, Ruleset, SeatInfo,
    Submission,
};
use muster_shared::ids::Viewer;
use muster_shared::sandbox::{Sandbox, SandboxAction, SandboxConfig, SandboxEvent, SandboxState};
use muster_shared::{Hash32, MatchId, SeatId};

/// The sandbox, with a bug: a roll whose note is "decide" panics in
/// `decide`, one whose note is "rolls" panics in `rolls_dice`.
#[derive(Debug)]
struct Brittle(Sandbox);

fn roll(note: &str) -> SandboxAction {
    SandboxAction::Roll {
        count: 1,
        sides: 6,
        note: note.into(),
    }
}

fn note(action: &SandboxAction) -> &str {
    match action {
        SandboxAction::Roll { note, .. } => note,
        _ => "",
    }
}

impl Ruleset for Brittle {
    const ID: &'static str = "brittle";
    type Config = SandboxConfig;
    type State = SandboxState;
    type Action = SandboxAction;
    type Event = SandboxEvent;

    fn new(config: &SandboxConfig) -> Result<Self, RuleError> {
        Sandbox::new(config).map(Brittle)
    }
    fn seats(&self) -> u8 {
        self.0.seats()
    }
    fn initial_state(&self) -> SandboxState {
        self.0.initial_state()
    }
    fn rolls_dice(&self, s: &SandboxState, ctx: &ActionContext, a: &SandboxAction) -> bool {
        assert_ne!(note(a), "rolls", "a bug in rolls_dice");
        self.0.rolls_dice(s, ctx, a)
    }
    fn decide(
        &self,
        s: &SandboxState,
        ctx: &ActionContext,
        a: &SandboxAction,
        dice: &mut Dice,
    ) -> Result<Vec<SandboxEvent>, RuleError> {
        assert_ne!(note(a), "decide", "a bug in decide");
        self.0.decide(s, ctx, a, dice)
    }
    fn evolve(&self, s: &mut SandboxState, e: &SandboxEvent) {
        self.0.evolve(s, e)
    }
    fn view(&self, s: &SandboxState, v: Viewer) -> SandboxState {
        self.0.view(s, v)
    }
    fn view_event(&self, s: &SandboxState, e: &SandboxEvent, v: Viewer) -> Option<SandboxEvent> {
        self.0.view_event(s, e, v)
    }
    fn legal_actions(&self, s: &SandboxState, seat: SeatId) -> Vec<SandboxAction> {
        self.0.legal_actions(s, seat)
    }
}

#[test]
fn a_panic_in_the_ruleset_is_an_internal_refusal_that_changes_nothing() {
    let header = LogHeader {
        format: LOG_FORMAT,
        match_id: MatchId([7; 16]),
        ruleset: String::new(),
        config: Vec::new(),
        seats: vec![SeatInfo {
            seat: SeatId(0),
            name: "Grant".into(),
        }],
    };
    let config = SandboxConfig {
        seats: 1,
        ..SandboxConfig::default()
    };
    let mut m = Match::<Brittle>::new(header, &config).expect("a table");
    let server = HashChain::from_secret(Hash32([1; 32]), 8);
    let seat = HashChain::from_secret(Hash32([2; 32]), 8);
    m.publish_anchor(Party::Server, server.anchor()).unwrap();
    m.publish_anchor(Party::Seat(SeatId(0)), seat.anchor())
        .unwrap();
    let submit = |m: &mut Match<Brittle>, note: &str| {
        let index = m.book().next_index(Party::Seat(SeatId(0))).unwrap();
        m.apply(
            Submission {
                seat: SeatId(0),
                action: roll(note),
                seat_links: vec![SeatLink {
                    seat: SeatId(0),
                    index,
                    link: seat.link(index).unwrap(),
                }],
                by_default: false,
            },
            &server,
        )
    };
    for bug in ["decide", "rolls"] {
        let (state, entries) = (m.state().clone(), m.log().entries.len());
        let book = m.book().clone();
        match submit(&mut m, bug) {
            Err(MatchError::Rule(e)) => assert_eq!(e.code, RuleCode::Internal, "{e}"),
            other => panic!("{bug}: {other:?}"),
        }
        assert_eq!(m.state(), &state, "{bug}: the state changed");
        assert_eq!(m.log().entries.len(), entries, "{bug}: the log changed");
        assert_eq!(m.book(), &book, "{bug}: a link was spent");
    }
    // The table goes on: the same seat's next roll uses the same link.
    submit(&mut m, "").expect("an ordinary roll after the bugs");
    assert_eq!(m.log().entries.len(), 3);
}
