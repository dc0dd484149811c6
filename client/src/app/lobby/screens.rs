//! Issue 21's club screens in the lobby's window (chosen in its top bar):
//! the account, the clubs and a club's new event — drawn here, their
//! clicks sent on the lobby's connection, the server's answers and
//! refusals folded in ([`news`], [`refused`]) and shown in words.

use super::{Lobby, Screen, clubs, new_event};
use crate::app::event::entry::invite_code;
use crate::app::event::words::sentence;
use egui::Ui;
use muster_shared::protocol::club::{ClubError, ClubReply, ClubRequest};

/// The button that leaves the new-event form for the clubs.
pub const BACK_TO_CLUBS: &str = "< Clubs";

/// Draw the screen `lobby.screen` (not the tables).
pub fn ui(ui: &mut Ui, lobby: &mut Lobby) {
    egui::CentralPanel::default().show(ui, |ui| {
        ui.set_max_width(900.0);
        match lobby.screen {
            Screen::Tables => {}
            Screen::Account => {
                let name = lobby
                    .identity
                    .as_ref()
                    .map_or_else(String::new, |i| i.name.clone());
                if let Some(password) = lobby.account_form.ui(ui, &name, lobby.account) {
                    lobby.link.club(ClubRequest::ClaimAccount { password });
                }
            }
            Screen::Clubs => {
                let action = lobby
                    .clubs_form
                    .ui(ui, lobby.clubs.as_deref(), lobby.account);
                if let Some(a) = action {
                    act(lobby, a);
                }
            }
            Screen::NewEvent => new_event_ui(ui, lobby),
        }
    });
}

fn act(lobby: &mut Lobby, action: clubs::ClubAction) {
    let req = match action {
        clubs::ClubAction::Create(name) => ClubRequest::CreateClub { name },
        clubs::ClubAction::Join(club) => ClubRequest::JoinClub { club },
        clubs::ClubAction::SetRole { club, user, role } => {
            ClubRequest::SetRole { club, user, role }
        }
        clubs::ClubAction::Webhook { club, url } => ClubRequest::SetWebhook { club, url },
        clubs::ClubAction::Leave { club, new_owner } => ClubRequest::LeaveClub { club, new_owner },
        clubs::ClubAction::NewEvent(club) => {
            let name = lobby
                .clubs
                .iter()
                .flatten()
                .find(|c| c.club == club)
                .map_or_else(String::new, |c| c.name.clone());
            let form = new_event::EventForm::new(&name);
            lobby.new_event = Some((club, name, form));
            lobby.screen = Screen::NewEvent;
            return;
        }
    };
    lobby.link.club(req);
}

fn new_event_ui(ui: &mut Ui, lobby: &mut Lobby) {
    if ui.button(BACK_TO_CLUBS).clicked() {
        lobby.screen = Screen::Clubs;
        return;
    }
    let Some((club, name, form)) = &mut lobby.new_event else {
        lobby.screen = Screen::Clubs;
        return;
    };
    if !form.ui(ui, name) {
        return;
    }
    // The event's random choices (sides, Swiss order among equals) are
    // seeded from the system's generator.
    let mut seed = [0u8; 8];
    let _ = getrandom::fill(&mut seed);
    match form.settings(u64::from_le_bytes(seed)) {
        Ok(settings) => {
            form.problem = None;
            form.sending = true;
            lobby.pending_vacation = form.vacation();
            lobby.link.club(ClubRequest::CreateEvent {
                club: *club,
                settings,
            });
        }
        Err(why) => {
            form.problem = Some(why);
            form.problem_is_check = true;
        }
    }
}

/// A club answer for the club screens.
pub fn news(lobby: &mut Lobby, reply: ClubReply) {
    let club_name = |lobby: &Lobby, club| {
        lobby
            .clubs
            .iter()
            .flatten()
            .find(|c| c.club == club)
            .map_or_else(|| "the club".to_string(), |c| c.name.clone())
    };
    match reply {
        ClubReply::Clubs { account, clubs } => {
            lobby.account = Some(account);
            lobby.clubs = Some(clubs);
            return;
        }
        ClubReply::AccountClaimed { name, .. } => {
            lobby.account_form.claiming = false;
            lobby.account_form.problem = None;
            lobby.notice = Some(format!(
                "{name} is an account now: sign in to it from any machine with its password"
            ));
        }
        ClubReply::ClubCreated { name, .. } => {
            lobby.clubs_form.new_name.clear();
            lobby.clubs_form.problem = None;
            lobby.notice = Some(format!("you created {name}: you are its owner"));
        }
        ClubReply::Member { club, user, role } => {
            let me = lobby.identity.as_ref().is_some_and(|i| i.user == user);
            let club = club_name(lobby, club);
            let who = lobby
                .clubs
                .iter()
                .flatten()
                .flat_map(|c| &c.members)
                .find(|m| m.user == user)
                .map_or_else(|| "the player".to_string(), |m| m.name.clone());
            lobby.notice = Some(if me {
                format!("you are a {} of {club}", clubs::role_words(role))
            } else {
                format!("{who} is a {} of {club} now", clubs::role_words(role))
            });
        }
        ClubReply::LeftClub { club, new_owner } => {
            let name = club_name(lobby, club);
            let heir = lobby
                .clubs
                .iter()
                .flatten()
                .flat_map(|c| &c.members)
                .find(|m| Some(m.user) == new_owner)
                .map(|m| m.name.clone());
            lobby.clubs_form.heirs.remove(&club);
            lobby.clubs_form.problem = None;
            lobby.notice = Some(match heir {
                Some(h) => format!("you left {name}; {h} owns it now"),
                None => format!("you left {name}"),
            });
        }
        ClubReply::Webhook { club, url } => {
            let club = club_name(lobby, club);
            lobby.notice = Some(match url {
                Some(u) => format!("the webhook of {club} is set: news is sent to {u}"),
                None => format!("{club} has no webhook now"),
            });
        }
        ClubReply::EventCreated { event, invite } => {
            if let Some(days) = lobby.pending_vacation.take() {
                lobby
                    .link
                    .club(ClubRequest::SetVacationDays { event, days });
            }
            let name = lobby
                .new_event
                .take()
                .map_or_else(|| "the event".to_string(), |(_, _, f)| f.name);
            lobby.notice = Some(match invite {
                Some(code) => format!(
                    "{name} is created; its invite code is {}",
                    invite_code(event, &code)
                ),
                None => format!("{name} is created; registration is open"),
            });
            lobby.screen = Screen::Tables;
            lobby.open_next = Some(event);
            lobby.link.club(ClubRequest::Events);
            return;
        }
        _ => return,
    }
    // Roles, clubs and webhooks as they are now.
    lobby.link.club(ClubRequest::Clubs);
}

/// A club refusal: shown on the screen it answers, in words.
pub fn refused(lobby: &mut Lobby, error: ClubError, message: &str) {
    let words = format!("{}: {message}", sentence(error.words()));
    match lobby.screen {
        Screen::Account if lobby.account_form.claiming => {
            lobby.account_form.claiming = false;
            lobby.account_form.problem = Some(words);
        }
        Screen::NewEvent => {
            lobby.pending_vacation = None;
            if let Some((_, _, f)) = &mut lobby.new_event {
                f.sending = false;
                f.problem = Some(words);
                f.problem_is_check = false;
            }
        }
        Screen::Clubs => lobby.clubs_form.problem = Some(words),
        _ => lobby.problem = Some(words),
    }
}
