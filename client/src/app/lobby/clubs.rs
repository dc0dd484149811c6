//! The clubs screen (issue 21): create a club (its creator is its owner),
//! join one, see your role in each; the owner names tournament directors
//! among the members; the owner and directors set the club's webhook (a
//! JSON POST when a round starts, when it is a player's move in slow play
//! and when a game ends) and see whether one is set, and open the form
//! that creates an event. A member leaves a club by a click; its owner
//! leaves by naming the member who owns it after them. Names and
//! addresses are checked here as the server checks them before they are
//! sent.

use egui::{Color32, RichText, Ui};
use muster_shared::protocol::UserId;
use muster_shared::protocol::club::{ClubId, ClubRole, ClubSummary};
use std::collections::BTreeMap;

/// The new club's name field and its button.
pub const CLUB_NAME: &str = "New club's name:";
pub const CREATE_CLUB: &str = "Create club";
/// The server's bound on a webhook's address, in bytes.
pub const MAX_URL: usize = 512;

/// A role in words.
pub fn role_words(role: ClubRole) -> &'static str {
    match role {
        ClubRole::Owner => "owner",
        ClubRole::Director => "tournament director",
        ClubRole::Member => "member",
    }
}

/// The button that names a member a tournament director.
pub fn make_director_label(name: &str) -> String {
    format!("Make {name} a tournament director")
}

/// The button that makes a director a plain member again.
pub fn make_member_label(name: &str) -> String {
    format!("Make {name} a member again")
}

pub fn join_label(club: &str) -> String {
    format!("Join {club}")
}

pub fn webhook_label(club: &str) -> String {
    format!("Webhook address for {club}:")
}

pub fn set_webhook_label(club: &str) -> String {
    format!("Set the webhook of {club}")
}

pub fn remove_webhook_label(club: &str) -> String {
    format!("Remove the webhook of {club}")
}

pub fn new_event_label(club: &str) -> String {
    format!("Create an event for {club}")
}

pub fn leave_label(club: &str) -> String {
    format!("Leave {club}")
}

/// The owner's choice of who owns the club after them.
pub fn heir_label(club: &str) -> String {
    format!("Owner of {club} after you:")
}

/// What was clicked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClubAction {
    Create(String),
    Join(ClubId),
    SetRole {
        club: ClubId,
        user: UserId,
        role: ClubRole,
    },
    Webhook {
        club: ClubId,
        url: Option<String>,
    },
    NewEvent(ClubId),
    /// Leave the club; the owner names its next owner.
    Leave {
        club: ClubId,
        new_owner: Option<UserId>,
    },
}

/// Why a webhook address cannot be sent, in words (as the server checks).
pub fn check_url(url: &str) -> Result<String, String> {
    let url = url.trim();
    if url.is_empty() || url.len() > MAX_URL {
        return Err(format!(
            "A webhook's address has 1 to {MAX_URL} characters."
        ));
    }
    if url.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err("A webhook's address has no spaces.".into());
    }
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"))
        .ok_or("A webhook's address starts with http:// or https://.")?;
    if rest.split('/').next().is_none_or(str::is_empty) {
        return Err("A webhook's address names its host after http://.".into());
    }
    Ok(url.to_string())
}

/// What is typed on the clubs screen.
#[derive(Clone, Debug, Default)]
pub struct ClubsForm {
    pub new_name: String,
    /// The webhook address typed per club.
    pub webhooks: BTreeMap<ClubId, String>,
    /// The owner's choice of the next owner, per club.
    pub heirs: BTreeMap<ClubId, UserId>,
    pub problem: Option<String>,
}

impl ClubsForm {
    /// Draw the screen; `clubs` as the server last listed them (`None`:
    /// not yet), `account`: whether this identity is an account.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        clubs: Option<&[ClubSummary]>,
        account: Option<bool>,
    ) -> Option<ClubAction> {
        let mut action = None;
        ui.heading("Clubs on this server");
        ui.add_space(4.0);
        ui.horizontal_wrapped(|ui| {
            let l = ui.label(CLUB_NAME);
            ui.add(egui::TextEdit::singleline(&mut self.new_name).desired_width(240.0))
                .labelled_by(l.id);
            if ui.button(CREATE_CLUB).clicked() {
                match muster_shared::display_name::check(&self.new_name) {
                    Ok(name) => {
                        self.problem = None;
                        action = Some(ClubAction::Create(name));
                    }
                    Err(e) => self.problem = Some(format!("A club's name: {e}.")),
                }
            }
        });
        if account == Some(false) {
            ui.weak(
                "Creating a club needs an account: claim your name on the Account screen first.",
            );
        }
        if let Some(p) = &self.problem {
            ui.label(RichText::new(p).color(Color32::from_rgb(0xe0, 0x8a, 0x00)));
        }
        ui.separator();
        let Some(clubs) = clubs else {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Asking the server…");
            });
            return action;
        };
        if clubs.is_empty() {
            ui.weak("There is no club on this server yet.");
        }
        egui::ScrollArea::vertical()
            .id_salt("clubs_scroll")
            .show(ui, |ui| {
                for c in clubs {
                    if let Some(a) = self.club_ui(ui, c) {
                        action = Some(a);
                    }
                }
            });
        action
    }

    fn club_ui(&mut self, ui: &mut Ui, c: &ClubSummary) -> Option<ClubAction> {
        let mut action = None;
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.horizontal_wrapped(|ui| {
                ui.strong(&c.name);
                match c.role {
                    Some(r) => {
                        ui.label(
                            RichText::new(format!("you are its {}", role_words(r)))
                                .color(Color32::from_rgb(0x60, 0xc0, 0xff)),
                        );
                    }
                    None => {
                        if ui.button(join_label(&c.name)).clicked() {
                            action = Some(ClubAction::Join(c.club));
                        }
                    }
                }
            });
            let Some(role) = c.role else { return };
            ui.label(if c.webhook_set {
                match &c.webhook {
                    Some(url) => format!("Webhook: news is sent to {url}"),
                    None => "Webhook: set by the club's owner".to_string(),
                }
            } else {
                "Webhook: none".to_string()
            });
            ui.label(format!("Members ({}):", c.members.len()));
            for m in &c.members {
                ui.horizontal_wrapped(|ui| {
                    ui.label(format!("  {}, {}", m.name, role_words(m.role)));
                    if role == ClubRole::Owner {
                        match m.role {
                            ClubRole::Member => {
                                if ui.button(make_director_label(&m.name)).clicked() {
                                    action = Some(ClubAction::SetRole {
                                        club: c.club,
                                        user: m.user,
                                        role: ClubRole::Director,
                                    });
                                }
                            }
                            ClubRole::Director => {
                                if ui.button(make_member_label(&m.name)).clicked() {
                                    action = Some(ClubAction::SetRole {
                                        club: c.club,
                                        user: m.user,
                                        role: ClubRole::Member,
                                    });
                                }
                            }
                            ClubRole::Owner => {}
                        }
                    }
                });
            }
            if let Some(a) = self.leave_ui(ui, c, role) {
                action = Some(a);
            }
            if role < ClubRole::Director {
                return;
            }
            ui.add_space(4.0);
            let typed = self
                .webhooks
                .entry(c.club)
                .or_insert_with(|| c.webhook.clone().unwrap_or_default());
            ui.horizontal_wrapped(|ui| {
                let l = ui.label(webhook_label(&c.name));
                ui.add(
                    egui::TextEdit::singleline(typed)
                        .hint_text("https://chat.example.org/hook")
                        .desired_width(320.0),
                )
                .labelled_by(l.id);
                if ui
                    .button(set_webhook_label(&c.name))
                    .on_hover_text(
                        "The server POSTs JSON there when a round starts, when it is a \
                         player's move in slow play, and when a game ends",
                    )
                    .clicked()
                {
                    match check_url(typed) {
                        Ok(url) => {
                            self.problem = None;
                            action = Some(ClubAction::Webhook {
                                club: c.club,
                                url: Some(url),
                            });
                        }
                        Err(e) => self.problem = Some(e),
                    }
                }
                if c.webhook_set && ui.button(remove_webhook_label(&c.name)).clicked() {
                    typed.clear();
                    action = Some(ClubAction::Webhook {
                        club: c.club,
                        url: None,
                    });
                }
            });
            if ui.button(new_event_label(&c.name)).clicked() {
                action = Some(ClubAction::NewEvent(c.club));
            }
        });
        action
    }

    /// The button that leaves the club; for its owner, first the choice
    /// of the member who owns it after them (a club keeps an owner).
    fn leave_ui(&mut self, ui: &mut Ui, c: &ClubSummary, role: ClubRole) -> Option<ClubAction> {
        let mut action = None;
        ui.horizontal_wrapped(|ui| {
            let others: Vec<_> = c
                .members
                .iter()
                .filter(|m| m.role != ClubRole::Owner)
                .collect();
            if role == ClubRole::Owner {
                if others.is_empty() {
                    ui.weak("You are its only member: a club keeps its owner, so you stay.");
                    return;
                }
                let heir = self.heirs.get(&c.club).copied();
                let shown = others
                    .iter()
                    .find(|m| Some(m.user) == heir)
                    .map_or("nobody chosen", |m| m.name.as_str());
                let l = ui.label(heir_label(&c.name));
                egui::ComboBox::from_id_salt(("club_heir", c.club.0))
                    .selected_text(shown)
                    .show_ui(ui, |ui| {
                        for m in &others {
                            if ui.selectable_label(heir == Some(m.user), &m.name).clicked() {
                                self.heirs.insert(c.club, m.user);
                                self.problem = None;
                            }
                        }
                    })
                    .response
                    .labelled_by(l.id);
            }
            if ui.button(leave_label(&c.name)).clicked() {
                let new_owner = self.heirs.get(&c.club).copied();
                if role == ClubRole::Owner && new_owner.is_none() {
                    self.problem = Some(format!(
                        "You own {}: choose the member who will own it before you leave.",
                        c.name
                    ));
                } else {
                    self.problem = None;
                    action = Some(ClubAction::Leave {
                        club: c.club,
                        new_owner: new_owner.filter(|_| role == ClubRole::Owner),
                    });
                }
            }
        });
        action
    }
}

#[cfg(test)]
mod tests {
    use super::check_url;

    #[test]
    fn a_webhook_address_is_checked_before_it_is_sent() {
        assert_eq!(
            check_url(" https://chat.example.org/hook ").unwrap(),
            "https://chat.example.org/hook"
        );
        assert!(check_url("ftp://x").is_err());
        assert!(check_url("http://").is_err());
        assert!(check_url("http://a b").is_err());
        assert!(check_url(&format!("http://h/{}", "x".repeat(600))).is_err());
    }
}
