//! Leaving a club (issue 21). A member or a director leaves at once: no
//! longer listed, no longer directing the club's events (not even those
//! they created; `Hub::directed`). The owner leaves only by naming
//! another member who owns the club from then on, so a club always has
//! its owner; an owner alone in the club has nobody to name and stays.
//! The events a leaver entered are untouched: registration and play do
//! not need membership.

use super::Hub;
use crate::club::event::Refusal;
use crate::room::Who;
use crate::storage::club as sql;
use muster_shared::protocol::UserId;
use muster_shared::protocol::club::{ClubError, ClubId, ClubReply, ClubRole};

impl Hub {
    pub(super) async fn leave_club(
        &mut self,
        who: &Who,
        club: ClubId,
        new_owner: Option<UserId>,
    ) -> Result<ClubReply, Refusal> {
        let Some(c) = self.clubs.get(&club) else {
            return Err((
                ClubError::NoSuchClub,
                format!("there is no club {}", club.0),
            ));
        };
        let Some(role) = c.members.get(&who.user).copied() else {
            return Err((
                ClubError::NotMember,
                format!("you are not a member of {}", c.name),
            ));
        };
        let heir = match (role, new_owner) {
            (ClubRole::Owner, None) => {
                let words = if c.members.len() == 1 {
                    format!(
                        "you own {} and are its only member: a club keeps its owner, so \
                         you cannot leave it",
                        c.name
                    )
                } else {
                    format!(
                        "you own {}: name the member who will own it before you leave",
                        c.name
                    )
                };
                return Err((ClubError::BadRequest, words));
            }
            (ClubRole::Owner, Some(u)) if u == who.user => {
                return Err((
                    ClubError::BadRequest,
                    "name another member to own the club; you are leaving it".into(),
                ));
            }
            (ClubRole::Owner, Some(u)) if !c.members.contains_key(&u) => {
                return Err((
                    ClubError::NotMember,
                    format!(
                        "the new owner must be a member of {}; that player is not",
                        c.name
                    ),
                ));
            }
            (ClubRole::Owner, Some(u)) => Some(u),
            (_, Some(_)) => {
                return Err((
                    ClubError::NotDirector,
                    "only the club's owner names a new owner".into(),
                ));
            }
            (_, None) => None,
        };
        let user = who.user;
        self.shared
            .storage
            .club(move |tx| {
                if let Some(h) = heir {
                    sql::set_member(tx, club, h, ClubRole::Owner)?;
                }
                sql::remove_member(tx, club, user)
            })
            .await
            .map_err(|e| {
                tracing::error!("club storage: {e}");
                (
                    ClubError::Internal,
                    "the server could not store that".to_string(),
                )
            })?;
        if let Some(c) = self.clubs.get_mut(&club) {
            c.members.remove(&user);
            if let Some(h) = heir {
                c.members.insert(h, ClubRole::Owner);
            }
        }
        Ok(ClubReply::LeftClub {
            club,
            new_owner: heir,
        })
    }
}
