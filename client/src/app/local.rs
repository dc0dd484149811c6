//! [`LocalTable`]: a table hosted inside this process, for hot-seat and
//! offline play, and the table every UI test plays at.
//!
//! It is a real table, not a stand-in: a [`Match`] with the server's hash
//! chain and one chain per seat, anchors published in the log, every roll
//! derived and proved exactly as the server does it, and per-viewer deltas
//! from [`Applied::delta_for`]. The UI follows it through the same
//! snapshots and deltas a network table sends, so everything the UI shows
//! has passed the follower's checks.

use super::link::{LinkError, LinkEvent, TableLink};
use super::saved::{SaveError, SavedChain, SavedGame};
use muster_shared::dice::{HashChain, Party, SeatLink};
use muster_shared::engine::verify::replay;
use muster_shared::engine::{
    LogHeader, Match, MatchError, RuleError, Ruleset, SeatInfo, Submission,
};
use muster_shared::protocol::TableId;
use muster_shared::{MatchId, SeatId, Viewer};

/// Links in each chain. A chain that runs out is replaced by a fresh one
/// with its anchor published in the log, so this only bounds how often.
const SERVER_CHAIN_LEN: u32 = 4096;
const SEAT_CHAIN_LEN: u32 = 1024;

/// A match hosted in this process, played by every local seat.
pub struct LocalTable<R: Ruleset> {
    table: TableId,
    m: Match<R>,
    server_chain: HashChain,
    /// Each seat's secret chain. At a hot-seat table the players share the
    /// machine, so the machine holds their chains.
    seat_chains: Vec<HashChain>,
    viewers: Vec<Viewer>,
    outbox: Vec<LinkEvent>,
    next_ref: u32,
}

impl<R: Ruleset> LocalTable<R> {
    /// A new table for `names.len()` seats, followed by every seat and by a
    /// spectator (so the UI can show what an onlooker would see).
    pub fn new(config: &R::Config, names: &[&str]) -> Result<Self, RuleError> {
        let header = LogHeader {
            format: muster_shared::engine::log::LOG_FORMAT,
            match_id: MatchId::random(),
            ruleset: String::new(),
            config: Vec::new(),
            seats: names
                .iter()
                .enumerate()
                .map(|(i, n)| SeatInfo {
                    seat: SeatId(i as u8),
                    name: (*n).to_string(),
                })
                .collect(),
        };
        let m = Match::new(header, config)?;
        let mut table = LocalTable {
            table: TableId(0),
            viewers: m.viewers(),
            m,
            server_chain: HashChain::generate(SERVER_CHAIN_LEN),
            seat_chains: Vec::new(),
            outbox: Vec::new(),
            next_ref: 1,
        };
        table.publish(Party::Server, table.server_chain.anchor());
        for seat in table.seats() {
            let chain = HashChain::generate(SEAT_CHAIN_LEN);
            table.publish(Party::Seat(seat), chain.anchor());
            table.seat_chains.push(chain);
        }
        // Followers start from the table as it is now, anchors included.
        table.outbox.clear();
        for viewer in table.viewers.clone() {
            table.resync(viewer);
        }
        Ok(table)
    }

    /// The authoritative match (for tests and for saving the log).
    pub fn game(&self) -> &Match<R> {
        &self.m
    }

    /// Issue 18: continue a saved hot-seat game. The log is replayed
    /// through the rules and the dice checks (a file changed by hand is
    /// refused, never half-loaded), and each saved chain must be the one
    /// whose anchor the log published last for its party, so every roll
    /// from here on is proved as before the save.
    pub fn from_saved(saved: &SavedGame) -> Result<Self, SaveError> {
        if saved.log.header.ruleset != R::ID {
            return Err(SaveError::Refused(
                "it is a game of another kind than this table's".into(),
            ));
        }
        let m = replay::<R>(&saved.log).map_err(|f| {
            SaveError::Refused(format!("step {} does not check out ({})", f.seq, f.what))
        })?;
        // Words for a chain's owner (never "seat 0").
        let whose = |party: Party| match party {
            Party::Server => "the table's own dice chain".to_string(),
            Party::Seat(s) => format!(
                "the dice chain of {}",
                saved
                    .log
                    .header
                    .seats
                    .iter()
                    .find(|i| i.seat == s)
                    .map_or_else(
                        || format!("seat {}", u16::from(s.0) + 1),
                        |i| i.name.clone()
                    )
            ),
        };
        let chain_for = |party: Party| -> Result<HashChain, SaveError> {
            let kept = saved
                .chains
                .iter()
                .find(|c| c.party == party)
                .ok_or_else(|| SaveError::Refused(format!("{} is missing", whose(party))))?;
            let chain = HashChain::from_secret(kept.secret, kept.len);
            let published = m
                .book()
                .heads()
                .into_iter()
                .find(|h| h.party == party)
                .map(|h| h.anchor);
            if published != Some(chain.anchor()) {
                return Err(SaveError::Refused(format!(
                    "{} is not the one its log published",
                    whose(party)
                )));
            }
            Ok(chain)
        };
        let server_chain = chain_for(Party::Server)?;
        let seat_chains = (0..m.ruleset().seats())
            .map(|s| chain_for(Party::Seat(SeatId(s))))
            .collect::<Result<Vec<_>, _>>()?;
        let mut table = LocalTable {
            table: TableId(0),
            viewers: m.viewers(),
            m,
            server_chain,
            seat_chains,
            outbox: Vec::new(),
            next_ref: 1,
        };
        // A chain used up just before the save is replaced, as after any
        // action; followers then start from the table as it is.
        table.refresh_chains();
        table.outbox.clear();
        for viewer in table.viewers.clone() {
            table.resync(viewer);
        }
        Ok(table)
    }

    /// Publish an anchor and send its delta to every viewer.
    fn publish(&mut self, party: Party, anchor: muster_shared::dice::ChainAnchor) {
        match self.m.publish_anchor(party, anchor) {
            Ok(seq) => {
                if let Some(body) = self.m.anchor_delta(seq) {
                    for &viewer in &self.viewers {
                        self.outbox.push(LinkEvent::Delta {
                            viewer,
                            seq,
                            body: body.clone(),
                        });
                    }
                }
            }
            // Only a bug could get here (a fresh chain is always acceptable);
            // say so rather than stop the table.
            Err(e) => self.outbox.push(LinkEvent::Error(format!(
                "could not publish {party}'s anchor: {e}"
            ))),
        }
    }

    /// Replace any chain that has no links left, as the server does.
    fn refresh_chains(&mut self) {
        if self.m.book().remaining(Party::Server) == 0 {
            self.server_chain = HashChain::generate(SERVER_CHAIN_LEN);
            self.publish(Party::Server, self.server_chain.anchor());
        }
        for seat in self.seats() {
            if self.m.book().remaining(Party::Seat(seat)) == 0 {
                let chain = HashChain::generate(SEAT_CHAIN_LEN);
                self.publish(Party::Seat(seat), chain.anchor());
                self.seat_chains[usize::from(seat.0)] = chain;
            }
        }
    }
}

impl<R: Ruleset> TableLink<R> for LocalTable<R> {
    fn seats(&self) -> Vec<SeatId> {
        (0..self.m.ruleset().seats()).map(SeatId).collect()
    }

    fn viewers(&self) -> Vec<Viewer> {
        self.viewers.clone()
    }

    fn submit(
        &mut self,
        seat: SeatId,
        action: R::Action,
        _rolls_dice: bool,
    ) -> Result<u32, LinkError> {
        let chain = self
            .seat_chains
            .get(usize::from(seat.0))
            .ok_or(LinkError::NotYourSeat(seat))?;
        let client_ref = self.next_ref;
        self.next_ref = self.next_ref.wrapping_add(1);
        // The host knows for certain whether the action rolls; reveal the
        // seat's next link only then, as a careful network client would.
        let seat_links = if self.m.rolls_dice(seat, &action) {
            let index = self.m.book().next_index(Party::Seat(seat));
            match index.and_then(|i| Some((i, chain.link(i)?))) {
                Some((index, link)) => vec![SeatLink { seat, index, link }],
                None => Vec::new(),
            }
        } else {
            Vec::new()
        };
        let sub = Submission {
            seat,
            action,
            seat_links,
            by_default: false,
        };
        match self.m.apply(sub, &self.server_chain) {
            Ok(applied) => {
                for &viewer in &self.viewers {
                    self.outbox.push(LinkEvent::Delta {
                        viewer,
                        seq: applied.seq,
                        body: applied.delta_for(viewer),
                    });
                }
                self.outbox.push(LinkEvent::Accepted {
                    client_ref,
                    seq: applied.seq,
                });
                self.refresh_chains();
            }
            Err(MatchError::Rule(error)) => {
                self.outbox.push(LinkEvent::Rejected { client_ref, error })
            }
            Err(e) => self.outbox.push(LinkEvent::Error(e.to_string())),
        }
        Ok(client_ref)
    }

    fn poll(&mut self) -> Vec<LinkEvent> {
        std::mem::take(&mut self.outbox)
    }

    /// Issue 18: at a hot-seat table nobody else is asked.
    fn take_back(&mut self, seat: SeatId) -> Result<(), LinkError> {
        if usize::from(seat.0) >= self.seat_chains.len() {
            return Err(LinkError::NotYourSeat(seat));
        }
        match self.m.take_back(seat) {
            Ok(taken) => {
                for &viewer in &self.viewers {
                    self.outbox.push(LinkEvent::Delta {
                        viewer,
                        seq: taken.seq,
                        body: taken.delta(),
                    });
                }
                self.outbox.push(LinkEvent::TakeBackEnded { refusal: None });
            }
            Err(e) => self.outbox.push(LinkEvent::TakeBackEnded {
                refusal: Some(match e {
                    MatchError::Rule(r) => r.message,
                    other => other.to_string(),
                }),
            }),
        }
        Ok(())
    }

    fn resync(&mut self, viewer: Viewer) {
        // Snapshots only for the viewers this table serves: a referee's
        // would show every hidden piece.
        if !self.viewers.contains(&viewer) {
            return;
        }
        self.outbox.push(LinkEvent::Snapshot {
            viewer,
            snapshot: self.m.snapshot(self.table, viewer),
        });
    }

    fn save(&self, title: &str) -> Option<SavedGame> {
        let mut chains = vec![SavedChain {
            party: Party::Server,
            secret: self.server_chain.secret(),
            len: self.server_chain.len(),
        }];
        for (s, chain) in self.seat_chains.iter().enumerate() {
            chains.push(SavedChain {
                party: Party::Seat(SeatId(u8::try_from(s).ok()?)),
                secret: chain.secret(),
                len: chain.len(),
            });
        }
        Some(SavedGame {
            title: title.to_string(),
            log: self.m.log().clone(),
            chains,
        })
    }

    fn describe(&self) -> String {
        // Words for the status line: no match id (a hex string) on screen.
        format!(
            "hot-seat table on this computer ({} seats)",
            self.m.ruleset().seats()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Follower;
    use muster_shared::engine::verify_log;
    use muster_shared::sandbox::{Loc, Position, Sandbox, SandboxAction, SandboxConfig};

    fn hex(col: u16, row: u16) -> Position {
        Position {
            board: 0,
            loc: Loc::Hex { col, row },
        }
    }

    /// Feed everything polled into one follower per viewer.
    fn follow(
        link: &mut LocalTable<Sandbox>,
        followers: &mut Vec<(Viewer, Follower<Sandbox>)>,
    ) -> Vec<LinkEvent> {
        let mut other = Vec::new();
        for ev in link.poll() {
            match ev {
                LinkEvent::Snapshot { viewer, snapshot } => {
                    followers.retain(|(v, _)| *v != viewer);
                    followers.push((viewer, Follower::from_snapshot(&snapshot).unwrap()));
                }
                LinkEvent::Delta { viewer, seq, body } => {
                    let f = &mut followers.iter_mut().find(|(v, _)| *v == viewer).unwrap().1;
                    f.apply(seq, &body).unwrap();
                }
                e => other.push(e),
            }
        }
        other
    }

    #[test]
    fn every_viewer_follows_and_every_roll_verifies() {
        let mut t = LocalTable::<Sandbox>::new(&SandboxConfig::default(), &["A", "B"]).unwrap();
        let mut fs = Vec::new();
        follow(&mut t, &mut fs);
        assert_eq!(fs.len(), 3, "two seats and a spectator");
        let place = |hidden| SandboxAction::Place {
            at: hex(3, 4),
            label: "1/I".into(),
            owner: Some(SeatId(0)),
            face_up: true,
            hidden,
        };
        t.submit(SeatId(0), place(false), false).unwrap();
        t.submit(SeatId(0), place(true), false).unwrap();
        for _ in 0..3 {
            t.submit(
                SeatId(1),
                SandboxAction::Roll {
                    count: 2,
                    sides: 6,
                    note: String::new(),
                },
                true,
            )
            .unwrap();
        }
        let answers = follow(&mut t, &mut fs);
        assert_eq!(answers.len(), 5);
        assert!(
            answers
                .iter()
                .all(|a| matches!(a, LinkEvent::Accepted { .. }))
        );
        for (viewer, f) in &fs {
            assert_eq!(f.verified_rolls(), 3, "{viewer:?}");
            assert!(f.bad_rolls().is_empty());
            assert_eq!(*f.state(), t.game().view(*viewer), "{viewer:?}");
        }
        // Seat 1 and the spectator never see the hidden piece.
        let seen = |v| {
            fs.iter()
                .find(|(w, _)| *w == v)
                .unwrap()
                .1
                .state()
                .pieces
                .len()
        };
        assert_eq!(seen(Viewer::Seat(SeatId(0))), 2);
        assert_eq!(seen(Viewer::Seat(SeatId(1))), 1);
        assert_eq!(seen(Viewer::Spectator), 1);
        assert!(verify_log(t.game().log()).ok());
    }

    #[test]
    fn refusals_come_back_with_their_reference() {
        let mut t = LocalTable::<Sandbox>::new(&SandboxConfig::default(), &["A", "B"]).unwrap();
        let mut fs = Vec::new();
        follow(&mut t, &mut fs);
        let r = t
            .submit(
                SeatId(0),
                SandboxAction::Flip {
                    piece: muster_shared::sandbox::PieceId(99),
                },
                false,
            )
            .unwrap();
        let answers = follow(&mut t, &mut fs);
        assert!(
            matches!(&answers[..], [LinkEvent::Rejected { client_ref, .. }] if *client_ref == r)
        );
        assert_eq!(
            t.submit(SeatId(7), SandboxAction::EndTurn, false),
            Err(LinkError::NotYourSeat(SeatId(7)))
        );
    }

    /// Issue 18: a saved game continues where it stood; the rolls after
    /// it are proved with the same chains; a changed chain is refused.
    #[test]
    fn a_saved_game_continues_and_its_rolls_still_verify() {
        let mut t = LocalTable::<Sandbox>::new(&SandboxConfig::default(), &["A", "B"]).unwrap();
        let roll = SandboxAction::Roll {
            count: 2,
            sides: 6,
            note: String::new(),
        };
        for _ in 0..3 {
            t.submit(SeatId(1), roll.clone(), true).unwrap();
        }
        let saved = t.save("a game").unwrap();
        let bytes = saved.to_file_bytes();
        let back = SavedGame::from_file_bytes(&bytes, "a game").unwrap();
        let mut u = LocalTable::<Sandbox>::from_saved(&back).unwrap();
        assert_eq!(u.game().state(), t.game().state());
        let mut fs = Vec::new();
        follow(&mut u, &mut fs);
        for _ in 0..2 {
            u.submit(SeatId(0), roll.clone(), true).unwrap();
        }
        let answers = follow(&mut u, &mut fs);
        assert!(
            answers
                .iter()
                .all(|a| matches!(a, LinkEvent::Accepted { .. })),
            "{answers:?}"
        );
        for (_, f) in &fs {
            assert!(f.bad_rolls().is_empty());
        }
        assert!(verify_log(u.game().log()).ok());
        // Another chain for seat B: refused in words.
        let mut bad = back.clone();
        bad.chains[2].secret = muster_shared::Hash32([9; 32]);
        let e = LocalTable::<Sandbox>::from_saved(&bad).err().unwrap();
        assert_eq!(
            e.to_string(),
            "the saved game cannot be continued: the dice chain of B is not the one its log published"
        );
        // A step changed: refused.
        let mut bad = back.clone();
        bad.log.entries.truncate(bad.log.entries.len() - 1);
        bad.log.entries.push(bad.log.entries[0].clone());
        assert!(LocalTable::<Sandbox>::from_saved(&bad).is_err());
    }

    #[test]
    fn exhausted_chains_are_replaced_and_rolls_still_verify() {
        let mut t = LocalTable::<Sandbox>::new(&SandboxConfig::default(), &["A", "B"]).unwrap();
        let mut fs = Vec::new();
        follow(&mut t, &mut fs);
        let roll = SandboxAction::Roll {
            count: 1,
            sides: 6,
            note: String::new(),
        };
        for _ in 0..SEAT_CHAIN_LEN + 5 {
            t.submit(SeatId(0), roll.clone(), true).unwrap();
        }
        let answers = follow(&mut t, &mut fs);
        assert!(
            answers
                .iter()
                .all(|a| matches!(a, LinkEvent::Accepted { .. }))
        );
        for (_, f) in &fs {
            assert_eq!(f.verified_rolls(), u64::from(SEAT_CHAIN_LEN) + 5);
            assert!(f.bad_rolls().is_empty());
        }
        assert!(verify_log(t.game().log()).ok());
    }
}
