//! The real UI, driven through egui_kittest against a real in-process table
//! (`LocalTable`: a `Match<Sandbox>` with real hash chains), rendered
//! headless with wgpu. Nothing here is mocked: every counter drawn came
//! through a follower that checked its delta.

use egui::{Event, Modifiers, PointerButton, Pos2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use muster_client::app::dice::{VERIFIED_TEXT, WARNING_TEXT};
use muster_client::app::{LinkEvent, LocalTable, MusterApp, Session, TableLink};
use muster_shared::protocol::DeltaBody;
use muster_shared::sandbox::{Loc, Piece, Position, Sandbox, SandboxAction, SandboxConfig};
use muster_shared::{SeatId, Viewer};

const SIZE: egui::Vec2 = vec2(1280.0, 800.0);

fn hex(col: u16, row: u16) -> Position {
    Position {
        board: 0,
        loc: Loc::Hex { col, row },
    }
}

fn harness(app: MusterApp) -> Harness<'static, MusterApp> {
    let mut h = Harness::builder()
        .with_size(SIZE)
        .wgpu()
        .build_ui_state(|ui, app: &mut MusterApp| app.ui(ui), app);
    h.run();
    h
}

fn hot_seat() -> Harness<'static, MusterApp> {
    harness(MusterApp::hot_seat(&SandboxConfig::default(), &["Union", "Confederate"]).unwrap())
}

/// Where hex `at` is on screen right now.
fn screen(h: &Harness<'_, MusterApp>, at: Position) -> Pos2 {
    let app = h.state();
    let config = app.session.ruleset().unwrap().config();
    app.board
        .screen_pos(config, at)
        .expect("the board has been drawn")
}

fn pieces_at(h: &Harness<'_, MusterApp>, at: Position) -> Vec<Piece> {
    h.state()
        .session
        .state()
        .unwrap()
        .stack_at(at)
        .into_iter()
        .cloned()
        .collect()
}

fn click_at(h: &mut Harness<'_, MusterApp>, p: Pos2, button: PointerButton) {
    h.hover_at(p);
    h.step();
    for pressed in [true, false] {
        h.event(Event::PointerButton {
            pos: p,
            button,
            pressed,
            modifiers: Modifiers::NONE,
        });
        h.step();
    }
    h.run();
}

/// Press at `from`, move there in steps, release at `to`: a real drag.
fn drag(h: &mut Harness<'_, MusterApp>, from: Pos2, to: Pos2) {
    h.hover_at(from);
    h.step();
    h.drag_at(from);
    h.step();
    for i in 1..=8 {
        h.hover_at(from + (to - from) * (i as f32 / 8.0));
        h.step();
    }
    h.drop_at(to);
    h.run();
}

/// Arm the palette, click `at` to place a piece, disarm.
fn place(h: &mut Harness<'_, MusterApp>, at: Position) {
    h.get_by_label("Place on board").click();
    h.run();
    let p = screen(h, at);
    click_at(h, p, PointerButton::Primary);
    h.get_by_label("Placing… (Esc to stop)").click();
    h.run();
}

#[test]
fn place_a_piece_by_clicking_a_hex() {
    let mut h = hot_seat();
    place(&mut h, hex(5, 5));
    let here = pieces_at(&h, hex(5, 5));
    assert_eq!(here.len(), 1, "{:?}", h.state().session.book().unwrap().log);
    assert_eq!(here[0].label, "Brigade 1");
    assert_eq!(here[0].owner, Some(SeatId(0)));
    // The palette counted on for the next piece.
    assert_eq!(h.state().palette.spec.label, "Brigade 2");
}

#[test]
fn drag_a_piece_to_another_hex_then_onto_a_piece_to_stack() {
    let mut h = hot_seat();
    place(&mut h, hex(5, 5));
    place(&mut h, hex(9, 6));
    let (a, b) = (screen(&h, hex(5, 5)), screen(&h, hex(7, 7)));
    drag(&mut h, a, b);
    assert!(pieces_at(&h, hex(5, 5)).is_empty());
    assert_eq!(pieces_at(&h, hex(7, 7))[0].label, "Brigade 1");

    // Drop it onto the other piece: a stack, with the dropped one on top.
    let (a, b) = (screen(&h, hex(7, 7)), screen(&h, hex(9, 6)));
    drag(&mut h, a, b);
    let stack: Vec<String> = pieces_at(&h, hex(9, 6))
        .into_iter()
        .map(|p| p.label)
        .collect();
    assert_eq!(stack, ["Brigade 2", "Brigade 1"]);
}

#[test]
fn dragging_empty_space_pans_and_scrolling_zooms() {
    let mut h = hot_seat();
    let before = h.state().board.camera().unwrap();
    let from = screen(&h, hex(2, 2));
    drag(&mut h, from, from + vec2(120.0, 40.0));
    let panned = h.state().board.camera().unwrap();
    assert!(
        (panned.offset - before.offset).length() > 50.0,
        "{before:?} → {panned:?}"
    );
    assert_eq!(panned.zoom, before.zoom);

    let at = screen(&h, hex(10, 10));
    h.hover_at(at);
    h.event(Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: vec2(0.0, 200.0),
        phase: egui::TouchPhase::Move,
        modifiers: Modifiers::NONE,
        source: egui::MouseWheelSource::Wheel,
    });
    h.run();
    let zoomed = h.state().board.camera().unwrap();
    assert!(zoomed.zoom > panned.zoom * 1.05, "{panned:?} → {zoomed:?}");
    // The hex under the pointer stays under the pointer.
    assert!((screen(&h, hex(10, 10)) - at).length() < 2.0);
}

#[test]
fn flip_and_mark_from_the_context_menu() {
    let mut h = hot_seat();
    place(&mut h, hex(4, 4));
    let p = screen(&h, hex(4, 4));
    click_at(&mut h, p, PointerButton::Secondary);
    h.get_by_label("Flip face down").click();
    h.run();
    assert!(!pieces_at(&h, hex(4, 4))[0].face_up);

    click_at(&mut h, p, PointerButton::Secondary);
    h.get_by_label("Add marker").click();
    h.run();
    h.get_by_label("Disrupted").click();
    h.run();
    assert_eq!(pieces_at(&h, hex(4, 4))[0].markers, ["Disrupted"]);
}

#[test]
fn a_roll_shows_its_dice_and_the_verified_tick() {
    let mut h = hot_seat();
    h.get_by_label("Roll").click();
    h.run();
    let book = h.state().session.book().unwrap();
    assert_eq!(book.rolls.len(), 1);
    assert_eq!(book.rolls[0].dice.len(), 2);
    assert_eq!(book.rolls[0].verdict, Ok(()));
    assert_eq!(book.follower.verified_rolls(), 1);
    h.get_by_label(VERIFIED_TEXT);
    assert!(h.query_by_label_contains(WARNING_TEXT).is_none());
}

#[test]
fn each_seat_sees_only_what_it_may() {
    let mut h = hot_seat();
    h.get_by_label("Hidden from others").click();
    h.run();
    place(&mut h, hex(3, 3));
    let mine = pieces_at(&h, hex(3, 3));
    assert!(mine.len() == 1 && mine[0].hidden);

    h.get_by_label_contains("Confederate").click();
    h.run();
    assert_eq!(h.state().session.active(), Viewer::Seat(SeatId(1)));
    assert!(
        pieces_at(&h, hex(3, 3)).is_empty(),
        "the other seat must not have it"
    );
    h.get_by_label_contains("Spectator").click();
    h.run();
    assert!(pieces_at(&h, hex(3, 3)).is_empty());
}

/// A table whose server lies about one die. The follower must catch it and
/// the dice panel must say so, loudly.
struct LyingTable(LocalTable<Sandbox>);

impl TableLink<Sandbox> for LyingTable {
    fn seats(&self) -> Vec<SeatId> {
        self.0.seats()
    }
    fn viewers(&self) -> Vec<Viewer> {
        self.0.viewers()
    }
    fn submit(
        &mut self,
        seat: SeatId,
        action: SandboxAction,
        rolls: bool,
    ) -> Result<u32, muster_client::app::LinkError> {
        self.0.submit(seat, action, rolls)
    }
    fn poll(&mut self) -> Vec<LinkEvent> {
        let mut events = self.0.poll();
        for e in &mut events {
            if let LinkEvent::Delta {
                body:
                    DeltaBody::Action {
                        roll: Some(proof), ..
                    },
                ..
            } = e
                && let Some(die) = proof.dice.first_mut()
            {
                die.value = die.value % die.sides + 1;
            }
        }
        events
    }
    fn resync(&mut self, viewer: Viewer) {
        self.0.resync(viewer)
    }
    fn describe(&self) -> String {
        "a lying table".into()
    }
}

#[test]
fn a_forged_roll_raises_the_alarm() {
    let table =
        LocalTable::<Sandbox>::new(&SandboxConfig::default(), &["Union", "Confederate"]).unwrap();
    let session = Session::new(
        Box::new(LyingTable(table)),
        vec!["Union".into(), "Confederate".into()],
    );
    let mut h = harness(MusterApp::new(session));
    h.get_by_label("Roll").click();
    h.run();
    assert!(h.state().session.bad_roll_count() > 0);
    h.get_by_label_contains(WARNING_TEXT);
    assert!(h.query_by_label(VERIFIED_TEXT).is_none());
    h.get_by_label("❌ FAILED");
}

#[test]
fn a_rendered_table_shows_the_board_and_its_counters() {
    let mut h = hot_seat();
    place(&mut h, hex(6, 6));
    h.get_by_label("Roll").click();
    h.run();
    let p = screen(&h, hex(6, 6));
    let image = h.render().expect("headless wgpu renders");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("sandbox_table.png");
    image.save(&path).unwrap();
    eprintln!("screenshot: {}", path.display());

    // Not blank: many distinct colours across the frame.
    let distinct: std::collections::BTreeSet<[u8; 4]> = image.pixels().map(|p| p.0).collect();
    assert!(distinct.len() > 50, "only {} colours", distinct.len());
    // The counter is where the state says: the Union blue at its hex.
    let ppp = image.width() as f32 / SIZE.x;
    let px = image.get_pixel((p.x * ppp) as u32, (p.y * ppp) as u32).0;
    let union = muster_client::app::counter::seat_colour(Some(SeatId(0))).to_array();
    let close = px
        .iter()
        .zip(union)
        .take(3)
        .all(|(a, b)| a.abs_diff(b) < 12);
    assert!(close, "pixel {px:?} at the counter, expected {union:?}");
}

#[test]
fn a_zoomed_in_table_with_stacks_renders_and_fans_out_on_hover() {
    let mut h = hot_seat();
    {
        let s = &mut h.state_mut().session;
        let mut put = |seat: u8, at: Position, label: &str, face_up: bool, hidden: bool| {
            s.set_active(Viewer::Seat(SeatId(seat)));
            s.act(SandboxAction::Place {
                at,
                label: label.into(),
                owner: Some(SeatId(seat)),
                face_up,
                hidden,
            });
        };
        put(0, hex(5, 5), "1/1/II", true, false);
        put(0, hex(5, 5), "2/1/II", false, false);
        put(0, hex(5, 5), "Banks", true, false);
        put(0, hex(6, 7), "Crawford", true, true);
        put(1, hex(8, 5), "Winder", true, false);
        put(1, hex(8, 6), "Taliaferro", false, false);
        s.set_active(Viewer::Seat(SeatId(0)));
        let top = s.state().unwrap().stack_at(hex(5, 5))[2].id;
        s.act(SandboxAction::AddMarker {
            piece: top,
            marker: "Disrupted".into(),
        });
        s.act(SandboxAction::AddMarker {
            piece: top,
            marker: "Fired".into(),
        });
    }
    h.run();
    // Zoom in on the action, around the stack.
    let at = screen(&h, hex(6, 6));
    h.hover_at(at);
    for _ in 0..8 {
        h.event(Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: vec2(0.0, 120.0),
            phase: egui::TouchPhase::Move,
            modifiers: Modifiers::NONE,
            source: egui::MouseWheelSource::Wheel,
        });
        h.step();
    }
    h.run();
    let zoom = h.state().board.camera().unwrap().zoom;
    assert!(zoom > 0.8, "zoomed to {zoom}");
    // Hover the stack: it fans out.
    let stack = screen(&h, hex(5, 5));
    h.hover_at(stack);
    h.run();
    assert_eq!(h.state().board.fanned(), Some(hex(5, 5)));

    let image = h.render().expect("headless wgpu renders");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("sandbox_zoomed_stack.png");
    image.save(&path).unwrap();
    eprintln!("screenshot: {}", path.display());
    let distinct: std::collections::BTreeSet<[u8; 4]> = image.pixels().map(|p| p.0).collect();
    assert!(distinct.len() > 200, "only {} colours", distinct.len());
    // Both sides' colours are on the board.
    let ppp = image.width() as f32 / SIZE.x;
    for (seat, at) in [(0, hex(6, 7)), (1, hex(8, 5))] {
        let p = screen(&h, at);
        assert!(
            p.x > 0.0 && p.y > 60.0 && p.x < 990.0 && p.y < 650.0,
            "{at:?} is off the board view at {p:?}"
        );
        let px = image
            .get_pixel((p.x * ppp) as u32, ((p.y - 10.0 * zoom) * ppp) as u32)
            .0;
        let want = muster_client::app::counter::seat_colour(Some(SeatId(seat))).to_array();
        // The hidden piece is drawn see-through, so only check it is tinted.
        let close = px.iter().zip(want).take(3).all(|(a, b)| a.abs_diff(b) < 60);
        assert!(close, "seat {seat}: pixel {px:?}, expected near {want:?}");
    }
}

#[test]
fn a_fanned_stack_lets_one_piece_out_and_shift_drag_moves_the_whole_stack() {
    let mut h = hot_seat();
    place(&mut h, hex(5, 5));
    place(&mut h, hex(5, 5));
    place(&mut h, hex(5, 5));
    assert_eq!(pieces_at(&h, hex(5, 5)).len(), 3);
    // Hover: the stack fans out and every counter can be grabbed.
    let at = screen(&h, hex(5, 5));
    h.hover_at(at);
    h.run();
    assert_eq!(h.state().board.fanned(), Some(hex(5, 5)));
    let bottom = pieces_at(&h, hex(5, 5))[0].clone();
    let grab = h.state().board.piece_rect(bottom.id).unwrap().center();
    let to = screen(&h, hex(8, 8));
    drag(&mut h, grab, to);
    assert_eq!(
        pieces_at(&h, hex(8, 8))
            .iter()
            .map(|p| p.id)
            .collect::<Vec<_>>(),
        [bottom.id]
    );
    assert_eq!(pieces_at(&h, hex(5, 5)).len(), 2);

    // Shift-drag takes the whole stack, its order kept.
    let order: Vec<_> = pieces_at(&h, hex(5, 5)).into_iter().map(|p| p.id).collect();
    let (from, to) = (screen(&h, hex(5, 5)), screen(&h, hex(10, 4)));
    // Shift is held through the whole gesture, as a player would.
    h.event(Event::ModifiersChanged(Modifiers::SHIFT));
    drag(&mut h, from, to);
    h.event(Event::ModifiersChanged(Modifiers::NONE));
    h.run();
    assert!(pieces_at(&h, hex(5, 5)).is_empty());
    assert_eq!(
        pieces_at(&h, hex(10, 4))
            .into_iter()
            .map(|p| p.id)
            .collect::<Vec<_>>(),
        order
    );
}

#[test]
fn pieces_go_on_the_free_surface_too() {
    let mut h = hot_seat();
    h.get_by_label("Off-map box").click();
    h.run();
    assert_eq!(h.state().board.board(), 1);
    let at = Position {
        board: 1,
        loc: Loc::Point { x: 500, y: 300 },
    };
    place(&mut h, at);
    let state = h.state().session.state().unwrap();
    let p = state.pieces.values().next().expect("placed");
    assert_eq!(p.at.board, 1);
    let Loc::Point { x, y } = p.at.loc else {
        panic!("{:?}", p.at)
    };
    // Within a couple of units of where we clicked (screen points round).
    assert!(x.abs_diff(500) <= 3 && y.abs_diff(300) <= 3, "{x},{y}");
}

#[test]
fn keys_flip_and_remove_the_selected_counter() {
    let mut h = hot_seat();
    place(&mut h, hex(6, 3));
    let p = screen(&h, hex(6, 3));
    click_at(&mut h, p, PointerButton::Primary);
    let id = pieces_at(&h, hex(6, 3))[0].id;
    assert_eq!(h.state().board.selected(), Some(id));
    h.key_press(egui::Key::F);
    h.run();
    assert!(!pieces_at(&h, hex(6, 3))[0].face_up);
    h.key_press(egui::Key::Delete);
    h.run();
    assert!(pieces_at(&h, hex(6, 3)).is_empty());
}

/// A table that sends everything a broken or hostile server might: events
/// that do not decode, gaps, a snapshot of garbage, deltas for a viewer
/// nobody follows. The UI must keep going, say what is wrong, and recover
/// by resyncing.
struct HostileTable {
    inner: LocalTable<Sandbox>,
    /// Mangle this many more events, then behave.
    mischief: u32,
}

impl TableLink<Sandbox> for HostileTable {
    fn seats(&self) -> Vec<SeatId> {
        self.inner.seats()
    }
    fn viewers(&self) -> Vec<Viewer> {
        self.inner.viewers()
    }
    fn submit(
        &mut self,
        seat: SeatId,
        action: SandboxAction,
        rolls: bool,
    ) -> Result<u32, muster_client::app::LinkError> {
        self.inner.submit(seat, action, rolls)
    }
    fn poll(&mut self) -> Vec<LinkEvent> {
        let mut out = Vec::new();
        for e in self.inner.poll() {
            if self.mischief == 0 {
                out.push(e);
                continue;
            }
            self.mischief -= 1;
            match e {
                LinkEvent::Delta {
                    viewer,
                    seq,
                    body:
                        DeltaBody::Action {
                            seat,
                            roll,
                            by_default,
                            ..
                        },
                } => {
                    let junk = vec![0xff; 40];
                    out.push(LinkEvent::Delta {
                        viewer,
                        seq,
                        body: DeltaBody::Action {
                            seat,
                            events: junk,
                            roll,
                            by_default,
                        },
                    });
                    out.push(LinkEvent::Delta {
                        viewer: Viewer::Referee,
                        seq,
                        body: DeltaBody::Action {
                            seat,
                            events: vec![],
                            roll: None,
                            by_default,
                        },
                    });
                }
                LinkEvent::Delta { viewer, seq, body } => out.push(LinkEvent::Delta {
                    viewer,
                    seq: seq + 7,
                    body,
                }),
                LinkEvent::Snapshot {
                    viewer,
                    mut snapshot,
                } => {
                    let mut bad = snapshot.clone();
                    bad.state = vec![3, 1, 4, 1, 5, 9, 2, 6];
                    out.push(LinkEvent::Snapshot {
                        viewer,
                        snapshot: bad,
                    });
                    snapshot.ruleset = "not-a-ruleset".into();
                    out.push(LinkEvent::Snapshot { viewer, snapshot });
                }
                other => out.push(other),
            }
        }
        out
    }
    fn resync(&mut self, viewer: Viewer) {
        self.inner.resync(viewer)
    }
    fn describe(&self) -> String {
        "a hostile table".into()
    }
}

#[test]
fn garbage_from_the_table_is_reported_and_recovered_from_never_a_panic() {
    let table =
        LocalTable::<Sandbox>::new(&SandboxConfig::default(), &["Union", "Confederate"]).unwrap();
    let names = vec!["Union".to_string(), "Confederate".to_string()];
    let hostile = HostileTable {
        inner: table,
        mischief: 40,
    };
    let mut h = Harness::builder().with_size(SIZE).build_ui_state(
        |ui, app: &mut MusterApp| app.ui(ui),
        MusterApp::new(Session::new(Box::new(hostile), names)),
    );
    h.run();
    for i in 0..12u16 {
        h.state_mut().session.act(SandboxAction::Place {
            at: hex(i, 2),
            label: format!("P{i}"),
            owner: None,
            face_up: true,
            hidden: false,
        });
        h.state_mut().session.act(SandboxAction::Roll {
            count: 1,
            sides: 6,
            note: String::new(),
        });
        h.run();
    }
    // Problems were said out loud…
    let book = h.state().session.book().expect("following despite it all");
    assert!(
        book.log
            .iter()
            .any(|l| l.kind == muster_client::app::session::LineKind::Problem)
    );
    // …and once the table behaves, one last action brings everyone in step.
    h.state_mut().session.act(SandboxAction::Roll {
        count: 1,
        sides: 6,
        note: String::new(),
    });
    h.run();
    let state = h.state().session.state().unwrap();
    assert_eq!(
        state.pieces.len(),
        12,
        "{:#?}",
        h.state().session.book().unwrap().log
    );
}

/// Issue 18: take-back at a hot-seat sandbox table, by the bar's button
/// and by Z: a piece placed by a click is taken back (the board is as
/// before), the button greys when nothing is left, and a roll is final.
#[test]
fn hot_seat_take_back_by_button_and_by_z() {
    use egui_kittest::kittest::NodeT;
    use muster_client::app::gbacw::TAKE_BACK;
    let enabled =
        |h: &Harness<'_, MusterApp>| !h.get_by_label(TAKE_BACK).accesskit_node().is_disabled();
    let mut h = hot_seat();
    assert!(!enabled(&h), "nothing to take back at the start");
    let before = h.state().session.state().unwrap().clone();
    place(&mut h, hex(5, 5));
    assert_eq!(pieces_at(&h, hex(5, 5)).len(), 1);
    assert!(enabled(&h), "the placement may be taken back");
    h.get_by_label(TAKE_BACK).hover();
    h.run();
    let image = h.render().expect("headless wgpu renders");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/screens");
    std::fs::create_dir_all(&dir).unwrap();
    image.save(dir.join("sandbox-take-back.png")).unwrap();
    h.get_by_label(TAKE_BACK).click();
    h.run();
    assert!(
        pieces_at(&h, hex(5, 5)).is_empty(),
        "the button took it back"
    );
    assert!(*h.state().session.state().unwrap() == before);
    assert!(!enabled(&h), "nothing left to take back");
    let log = &h.state().session.book().unwrap().log;
    assert!(
        log.iter().any(|l| l.text.contains("took back")),
        "the log says so: {log:?}"
    );
    // Z does the same.
    place(&mut h, hex(6, 6));
    assert_eq!(pieces_at(&h, hex(6, 6)).len(), 1);
    h.key_press(egui::Key::Z);
    h.run();
    assert!(pieces_at(&h, hex(6, 6)).is_empty(), "Z took it back");
    // A roll is final, and so is what came before it.
    place(&mut h, hex(7, 7));
    h.get_by_label("Roll").click();
    h.run();
    assert!(!enabled(&h), "a roll cannot be taken back");
    h.key_press(egui::Key::Z);
    h.run();
    assert_eq!(pieces_at(&h, hex(7, 7)).len(), 1, "Z did nothing");
    h.get_by_label(TAKE_BACK);
    assert!(h.state().session.last_refusal.is_none());
}
