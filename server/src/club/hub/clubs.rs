//! The hub's answer to `Clubs` (the client's club screens): every club
//! with the caller's role, the members of the caller's own clubs by name
//! and role, and the webhook to those who may change it.

use super::Hub;
use crate::club::event::Refusal;
use crate::room::Who;
use crate::storage::club as sql;
use muster_shared::protocol::club::{
    ClubError, ClubMember, ClubReply, ClubRole, ClubSummary, MAX_LISTED_CLUBS, MAX_LISTED_MEMBERS,
};

impl Hub {
    pub(super) async fn clubs_listed(&self, who: &Who) -> Result<ClubReply, Refusal> {
        let failed = |e| {
            tracing::error!("club storage: {e}");
            (
                ClubError::Internal,
                "the server could not read its clubs".to_string(),
            )
        };
        // The caller's clubs first, then the others, oldest first.
        let mut ids: Vec<_> = self.clubs.keys().copied().collect();
        ids.sort_by_key(|c| (self.role(*c, who.user).is_none(), *c));
        ids.truncate(MAX_LISTED_CLUBS);
        let mut clubs = Vec::with_capacity(ids.len());
        for id in ids {
            let Some(club) = self.clubs.get(&id) else {
                continue;
            };
            let role = club.members.get(&who.user).copied();
            let members = match role {
                None => Vec::new(),
                Some(_) => {
                    // Owner first, then directors, then members.
                    let mut by_role: Vec<_> = club.members.iter().map(|(u, r)| (*r, *u)).collect();
                    by_role.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
                    by_role.truncate(MAX_LISTED_MEMBERS);
                    let users: Vec<_> = by_role.iter().map(|(_, u)| *u).collect();
                    let named = self
                        .shared
                        .storage
                        .club(move |tx| sql::user_names(tx, &users))
                        .await
                        .map_err(failed)?;
                    named
                        .into_iter()
                        .filter_map(|(user, name)| {
                            Some(ClubMember {
                                user,
                                name,
                                role: *club.members.get(&user)?,
                            })
                        })
                        .collect()
                }
            };
            clubs.push(ClubSummary {
                club: id,
                name: club.name.clone(),
                role,
                members,
                webhook_set: club.webhook.is_some(),
                webhook: club
                    .webhook
                    .clone()
                    .filter(|_| role.is_some_and(|r| r >= ClubRole::Director)),
            });
        }
        let user = who.user;
        let account = self
            .shared
            .storage
            .club(move |tx| sql::is_account(tx, user))
            .await
            .map_err(failed)?;
        Ok(ClubReply::Clubs { account, clubs })
    }
}
