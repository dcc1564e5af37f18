//! The memory request bodies may hold at once, shared fairly between senders: each body
//! takes room for its declared length (or its cap) before it is read, from the whole budget
//! and from its sender's share of it. A sender is a network address (an IPv6 /64), or for an
//! upload the logged-in user. So one sender's slow bodies (a client trickling a byte every
//! few seconds into a thousand requests) hold at most its own share, and every other
//! address's logins and launches still find room.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Who sends a body, for its share of the budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sender {
    /// A network (see [`crate::http::throttle::network`]); none when the address is unknown.
    Network(Option<IpAddr>),
    /// A logged-in user's upload, whichever address it comes from (a room behind one
    /// address uploads side by side).
    User(i64),
}

/// The budget: its whole room and each sender's share, in kibibytes.
pub struct BodyBudget {
    total: Arc<Semaphore>,
    share_kib: u32,
    shares: Mutex<HashMap<Sender, Arc<Semaphore>>>,
}

/// Room held for one body; given back when dropped.
pub struct BodyRoom {
    _total: OwnedSemaphorePermit,
    share: Option<OwnedSemaphorePermit>,
    sender: Sender,
    budget: Arc<BodyBudget>,
}

impl BodyBudget {
    /// A budget of `total_bytes`, of which one sender may hold `share_bytes`.
    pub fn new(total_bytes: usize, share_bytes: usize) -> Arc<BodyBudget> {
        let kib = |bytes: usize| (bytes / 1024).min(Semaphore::MAX_PERMITS) as u32;
        Arc::new(BodyBudget {
            total: Arc::new(Semaphore::new(kib(total_bytes) as usize)),
            share_kib: kib(share_bytes).min(kib(total_bytes)),
            shares: Mutex::new(HashMap::new()),
        })
    }

    /// Room for `bytes` of `sender`'s body, waited for `wait` at most (first the sender's
    /// share, then the whole budget; each served in turn).
    pub async fn reserve(
        self: &Arc<Self>,
        sender: Sender,
        bytes: usize,
        wait: Duration,
    ) -> Option<BodyRoom> {
        let kib = self.kib_of(bytes);
        let share = self.share_of(sender);
        let taken = tokio::time::timeout(wait, async {
            let share = share.acquire_many_owned(kib).await.ok()?;
            let total = Arc::clone(&self.total).acquire_many_owned(kib).await.ok()?;
            Some((share, total))
        })
        .await;
        // The waiting future, and with it the sender's semaphore, is gone by now: an idle
        // share can be forgotten.
        match taken {
            Ok(Some((share, total))) => Some(self.room(sender, share, total)),
            _ => {
                self.forget_if_idle(sender);
                None
            }
        }
    }

    /// Room for `bytes` now, or none (for a refused request's body, read only if it fits).
    pub fn try_reserve(self: &Arc<Self>, sender: Sender, bytes: usize) -> Option<BodyRoom> {
        let kib = self.kib_of(bytes);
        let share = self.share_of(sender);
        let taken = Arc::clone(&share)
            .try_acquire_many_owned(kib)
            .ok()
            .and_then(|share| {
                let total = Arc::clone(&self.total).try_acquire_many_owned(kib).ok()?;
                Some((share, total))
            });
        drop(share);
        match taken {
            Some((share, total)) => Some(self.room(sender, share, total)),
            None => {
                self.forget_if_idle(sender);
                None
            }
        }
    }

    /// Kibibytes for a body of `bytes`: at least one, and never more than a share (a body
    /// larger than a share is refused by its cap before it gets here).
    fn kib_of(&self, bytes: usize) -> u32 {
        u32::try_from(bytes.div_ceil(1024).max(1))
            .unwrap_or(u32::MAX)
            .min(self.share_kib)
    }

    fn share_of(&self, sender: Sender) -> Arc<Semaphore> {
        let mut shares = self.shares.lock().expect("no panics holding the shares");
        Arc::clone(
            shares
                .entry(sender)
                .or_insert_with(|| Arc::new(Semaphore::new(self.share_kib as usize))),
        )
    }

    fn room(
        self: &Arc<Self>,
        sender: Sender,
        share: OwnedSemaphorePermit,
        total: OwnedSemaphorePermit,
    ) -> BodyRoom {
        BodyRoom {
            _total: total,
            share: Some(share),
            sender,
            budget: Arc::clone(self),
        }
    }

    /// Forgets a sender's share once nothing holds or waits for it, so the map holds only
    /// senders with bodies under way.
    fn forget_if_idle(&self, sender: Sender) {
        let mut shares = self.shares.lock().expect("no panics holding the shares");
        if let Some(share) = shares.get(&sender)
            && Arc::strong_count(share) == 1
            && share.available_permits() == self.share_kib as usize
        {
            shares.remove(&sender);
        }
    }

    /// Senders with a share in use (for tests).
    #[cfg(test)]
    fn senders(&self) -> usize {
        self.shares.lock().unwrap().len()
    }
}

impl Drop for BodyRoom {
    fn drop(&mut self) {
        // Given back first, so the share is seen idle.
        drop(self.share.take());
        self.budget.forget_if_idle(self.sender);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KIB: usize = 1024;

    #[tokio::test]
    async fn a_sender_holding_its_share_keeps_no_other_sender_out() {
        let budget = BodyBudget::new(64 * KIB, 16 * KIB);
        let flood = Sender::Network(Some("10.0.0.1".parse().unwrap()));
        let wait = Duration::from_millis(50);
        let mut held = Vec::new();
        for _ in 0..4 {
            held.push(
                budget
                    .reserve(flood, 4 * KIB, wait)
                    .await
                    .expect("its share"),
            );
        }
        // Its share is full: it waits and is refused...
        assert!(budget.reserve(flood, KIB, wait).await.is_none());
        assert!(budget.try_reserve(flood, KIB).is_none());
        // ...while another address, and a user uploading from the same address, get room.
        let student = Sender::Network(Some("10.0.0.2".parse().unwrap()));
        assert!(budget.reserve(student, 16 * KIB, wait).await.is_some());
        assert!(budget.try_reserve(Sender::User(7), 4 * KIB).is_some());
        // Room given back is the sender's again, and idle shares are forgotten.
        held.pop();
        assert!(budget.reserve(flood, 4 * KIB, wait).await.is_some());
        drop(held);
        assert_eq!(budget.senders(), 0);
    }

    #[tokio::test]
    async fn the_whole_budget_still_bounds_every_sender_together() {
        let budget = BodyBudget::new(8 * KIB, 4 * KIB);
        let wait = Duration::from_millis(50);
        let a = budget.reserve(Sender::User(1), 4 * KIB, wait).await;
        let b = budget.reserve(Sender::User(2), 4 * KIB, wait).await;
        assert!(a.is_some() && b.is_some());
        assert!(budget.reserve(Sender::User(3), KIB, wait).await.is_none());
        drop(a);
        assert!(budget.reserve(Sender::User(3), KIB, wait).await.is_some());
    }
}
