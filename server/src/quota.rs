//! Limits per source address (issue 20, item 5): connections open at once,
//! guest sign-ins per minute, and the token bucket every rate limit uses.
//!
//! Addresses are grouped the way one client holds them: an IPv4 address on
//! its own, an IPv6 address by its /64 (one host or one home network gets
//! a whole /64, so counting single IPv6 addresses would count nothing), an
//! IPv4-mapped IPv6 address as the IPv4 address.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A token bucket: `rate` per second on average, `burst` at once.
#[derive(Clone, Debug)]
pub struct Bucket {
    tokens: f64,
    last: Instant,
    rate: f64,
    burst: f64,
}

impl Bucket {
    pub fn new(rate: f64, burst: u32) -> Self {
        Bucket {
            tokens: f64::from(burst),
            last: Instant::now(),
            rate,
            burst: f64::from(burst),
        }
    }

    fn refill(&mut self) {
        let now = Instant::now();
        self.tokens =
            (self.tokens + now.duration_since(self.last).as_secs_f64() * self.rate).min(self.burst);
        self.last = now;
    }

    /// Take one token if there is one.
    pub fn take(&mut self) -> bool {
        self.refill();
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// How long until the next token (zero when one is there).
    pub fn wait(&mut self) -> Duration {
        self.refill();
        if self.tokens >= 1.0 || self.rate <= 0.0 {
            return Duration::ZERO;
        }
        Duration::from_secs_f64((1.0 - self.tokens) / self.rate)
    }

    /// Whether the bucket has refilled (nothing to remember about it).
    pub fn full(&mut self) -> bool {
        self.refill();
        self.tokens >= self.burst
    }
}

/// "12 s", "3 min": a retry time in words, rounded up.
pub fn retry_in(d: Duration) -> String {
    let s = d.as_secs() + u64::from(d.subsec_nanos() > 0);
    let s = s.max(1);
    if s < 120 {
        format!("{s} s")
    } else {
        format!("{} min", s.div_ceil(60))
    }
}

/// The key addresses are counted under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AddrKey(IpAddr);

impl AddrKey {
    pub fn of(ip: IpAddr) -> AddrKey {
        match ip {
            IpAddr::V4(v4) => AddrKey(IpAddr::V4(v4)),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => AddrKey(IpAddr::V4(v4)),
                None => {
                    let bits = u128::from(v6) & !((1u128 << 64) - 1);
                    AddrKey(IpAddr::V6(Ipv6Addr::from(bits)))
                }
            },
        }
    }

    /// As stored with a table (so the count survives a restart).
    pub fn to_text(self) -> String {
        self.0.to_string()
    }

    pub fn parse(text: &str) -> Option<AddrKey> {
        text.parse().ok().map(AddrKey::of)
    }
}

impl std::fmt::Display for AddrKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            IpAddr::V6(_) => write!(f, "{}/64", self.0),
            IpAddr::V4(_) => write!(f, "{}", self.0),
        }
    }
}

struct AddrState {
    conns: u32,
    signins: Bucket,
}

/// Sweep entries nobody uses every this many new addresses.
const SWEEP_EVERY: u32 = 1024;

/// Per-address counters, shared by every connection.
pub struct Addrs {
    max_conns: u32,
    signin_rate: f64,
    signin_burst: u32,
    state: Mutex<(HashMap<AddrKey, AddrState>, u32)>,
}

/// A connection slot; dropping it frees the slot.
pub struct ConnSlot {
    addrs: Arc<Addrs>,
    pub key: AddrKey,
}

impl Drop for ConnSlot {
    fn drop(&mut self) {
        let mut st = self.addrs.lock();
        if let Some(s) = st.0.get_mut(&self.key) {
            s.conns = s.conns.saturating_sub(1);
            if s.conns == 0 && s.signins.full() {
                st.0.remove(&self.key);
            }
        }
    }
}

impl Addrs {
    pub fn new(max_conns: u32, signins_per_minute: u32, signin_burst: u32) -> Addrs {
        Addrs {
            max_conns,
            signin_rate: f64::from(signins_per_minute) / 60.0,
            signin_burst,
            state: Mutex::new((HashMap::new(), 0)),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, (HashMap<AddrKey, AddrState>, u32)> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A slot for one more connection from `ip`, or a refusal in words.
    pub fn connect(self: &Arc<Self>, ip: IpAddr) -> Result<ConnSlot, String> {
        let key = AddrKey::of(ip);
        let mut st = self.lock();
        let (map, added) = &mut *st;
        if !map.contains_key(&key) {
            *added += 1;
            if *added >= SWEEP_EVERY {
                *added = 0;
                // Addresses whose connections are gone and whose sign-in
                // bucket has refilled cost nothing to forget.
                map.retain(|_, s| s.conns > 0 || !s.signins.full());
            }
        }
        let s = map.entry(key).or_insert_with(|| AddrState {
            conns: 0,
            signins: Bucket::new(self.signin_rate, self.signin_burst),
        });
        if s.conns >= self.max_conns {
            return Err(format!(
                "too many connections from your address ({key}): at most {} at once; \
                 close one and connect again",
                self.max_conns
            ));
        }
        s.conns += 1;
        drop(st);
        Ok(ConnSlot {
            addrs: self.clone(),
            key,
        })
    }

    /// One guest sign-in from `key`, or a refusal that says when to retry.
    pub fn guest_signin(&self, key: AddrKey) -> Result<(), String> {
        let mut st = self.lock();
        let Some(s) = st.0.get_mut(&key) else {
            return Ok(()); // not counted (cannot happen while a slot is held)
        };
        if s.signins.take() {
            return Ok(());
        }
        let wait = s.signins.wait();
        let per_min = (self.signin_rate * 60.0).round();
        Err(format!(
            "too many new guests from your address ({key}): at most {per_min} a minute; \
             try again in {}, or resume with the token you were given",
            retry_in(wait)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v6_counts_by_slash_64_and_mapped_v4_as_v4() {
        let a = AddrKey::of("2001:db8:1:2:aaaa::1".parse().unwrap());
        let b = AddrKey::of("2001:db8:1:2:bbbb::9".parse().unwrap());
        let c = AddrKey::of("2001:db8:1:3::1".parse().unwrap());
        assert_eq!(a, b);
        assert_ne!(a, c);
        let m = AddrKey::of("::ffff:10.0.0.1".parse().unwrap());
        assert_eq!(m, AddrKey::of("10.0.0.1".parse().unwrap()));
        assert_eq!(AddrKey::parse(&a.to_text()), Some(a));
    }

    #[test]
    fn connection_slots_are_counted_and_freed() {
        let addrs = Arc::new(Addrs::new(2, 60, 1));
        let ip: IpAddr = "10.0.0.1".parse().unwrap();
        let a = addrs.connect(ip).unwrap();
        let _b = addrs.connect(ip).unwrap();
        assert!(addrs.connect(ip).is_err());
        assert!(addrs.connect("10.0.0.2".parse().unwrap()).is_ok());
        drop(a);
        let c = addrs.connect(ip).unwrap();
        assert!(addrs.guest_signin(c.key).is_ok());
        let why = addrs.guest_signin(c.key).unwrap_err();
        assert!(why.contains("try again in 1 s"), "{why}");
    }
}
