//! RESULTS.md from the JSON files `bench-driver run` wrote.

use anyhow::{Context as _, Result};
use clap::Parser;
use serde_json::Value;

#[derive(Parser, Clone)]
pub struct ReportArgs {
    /// Markdown written above the tables (date, machine, sizes, notes).
    #[arg(long)]
    header: String,
    /// Markdown written below the tables.
    #[arg(long)]
    footer: Option<String>,
    #[arg(long)]
    out: String,
    /// JSON files from `run`, one per column, in column order.
    files: Vec<String>,
}

fn num(v: &Value, path: &[&str]) -> Option<f64> {
    let mut v = v;
    for p in path {
        v = v.get(*p)?;
    }
    v.as_f64()
}

fn fmt(x: Option<f64>, digits: usize) -> String {
    match x {
        None => "—".into(),
        Some(x) if x.is_infinite() => "lost moves".into(),
        Some(x) if x.is_nan() => "—".into(),
        Some(x) => format!("{x:.digits$}"),
    }
}

pub fn write(a: &ReportArgs) -> Result<()> {
    let mut runs = Vec::new();
    for f in &a.files {
        let text = std::fs::read_to_string(f).with_context(|| format!("read {f}"))?;
        runs.push(serde_json::from_str::<Value>(&text).with_context(|| format!("parse {f}"))?);
    }
    let mut md = std::fs::read_to_string(&a.header).with_context(|| format!("read {}", a.header))?;
    md.push('\n');

    let label = |r: &Value| {
        let l = r.get("label").and_then(Value::as_str).unwrap_or("?");
        let k = r.get("keepalive").and_then(Value::as_str).unwrap_or("?");
        format!("{l}<br>keep-alive {k}")
    };
    md.push_str("| metric |");
    for r in &runs {
        md.push_str(&format!(" {} |", label(r)));
    }
    md.push_str("\n|---|");
    for _ in &runs {
        md.push_str("---:|");
    }
    md.push('\n');

    type Row<'a> = (&'a str, Box<dyn Fn(&Value) -> String>);
    let rows: Vec<Row> = vec![
        ("tables × clients (steady run)", Box::new(|r| match (num(r, &["steady", "tables"]), num(r, &["steady", "clients"])) {
            (Some(t), Some(c)) => format!("{t} × {}", c / t),
            _ => "—".into(),
        })),
        ("moves measured / expected", Box::new(|r| format!("{} / {}", fmt(num(r, &["steady", "moves"]), 0), fmt(num(r, &["steady", "expected_moves"]), 0)))),
        ("move → last spectator p50, ms", Box::new(|r| fmt(num(r, &["steady", "p50_ms"]), 2))),
        ("move → last spectator p99, ms", Box::new(|r| fmt(num(r, &["steady", "p99_ms"]), 2))),
        ("bytes down per move per client", Box::new(|r| fmt(num(r, &["steady", "down_bytes_per_move_per_client"]), 0))),
        ("bytes up per move (all clients of the table)", Box::new(|r| fmt(num(r, &["steady", "up_bytes_per_move"]), 0))),
        ("server CPU per move, ms", Box::new(|r| fmt(num(r, &["steady", "cpu_ms_per_move"]), 3))),
        ("server CPU use in steady run", Box::new(|r| fmt(num(r, &["steady", "cpu_util"]).map(|x| x * 100.0), 1) + " %")),
        ("driver CPU use in steady run", Box::new(|r| fmt(num(r, &["steady", "driver_cpu_util"]).map(|x| x * 100.0), 1) + " %")),
        ("server RSS idle → loaded, MiB", Box::new(|r| format!("{} → {}", fmt(num(r, &["steady", "rss_idle_mb"]), 0), fmt(num(r, &["steady", "rss_loaded_mb"]), 0)))),
        ("server RSS per connection, KiB", Box::new(|r| fmt(num(r, &["steady", "rss_kb_per_connection"]), 1))),
        ("join burst: ok / n", Box::new(|r| format!("{} / {}", fmt(num(r, &["join_burst", "ok"]), 0), fmt(num(r, &["join_burst", "clients"]), 0)))),
        ("join burst: all in, ms", Box::new(|r| fmt(num(r, &["join_burst", "wall_ms"]), 0))),
        ("join burst: p50 / p99 per join, ms", Box::new(|r| format!("{} / {}", fmt(num(r, &["join_burst", "p50_ms"]), 0), fmt(num(r, &["join_burst", "p99_ms"]), 0)))),
        ("reconnect burst: ok / n", Box::new(|r| format!("{} / {}", fmt(num(r, &["reconnect_burst", "ok"]), 0), fmt(num(r, &["reconnect_burst", "clients"]), 0)))),
        ("reconnect burst: all back, ms", Box::new(|r| fmt(num(r, &["reconnect_burst", "wall_ms"]), 0))),
        ("reconnect burst: p50 / p99, ms", Box::new(|r| format!("{} / {}", fmt(num(r, &["reconnect_burst", "p50_ms"]), 0), fmt(num(r, &["reconnect_burst", "p99_ms"]), 0)))),
        ("tables per core (p99 ≤ 50 ms)", Box::new(|r| fmt(num(r, &["tables_per_core"]), 0))),
        ("search", Box::new(|r| r.get("search_note").and_then(Value::as_str).filter(|s| !s.is_empty()).unwrap_or("—").to_string())),
        ("bad dice in steady run (outside 1–6, or a Muster proof that failed)", Box::new(|r| fmt(num(r, &["steady", "bad_dice"]), 0))),
        ("client errors in steady run", Box::new(|r| fmt(num(r, &["steady", "client_errors"]), 0))),
        ("error", Box::new(|r| r.get("error").and_then(Value::as_str).map(|e| e.replace('|', "/")).unwrap_or_default())),
    ];
    for (name, f) in &rows {
        md.push_str(&format!("| {name} |"));
        for r in &runs {
            md.push_str(&format!(" {} |", f(r)));
        }
        md.push('\n');
    }

    ratios(&mut md, &runs);

    // Every step of every search, so the bound can be checked.
    md.push_str("\n### Tables-per-core search steps\n\nServer pinned to one core; each step a fresh server process.\n\n| server | tables | clients | moves/expected | p50 ms | p99 ms | server CPU | driver CPU | result |\n|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for r in &runs {
        for s in r.get("search").and_then(Value::as_array).into_iter().flatten() {
            let p99 = num(s, &["p99_ms"]);
            let ok = p99.is_some_and(|p| p <= 50.0)
                && num(s, &["setup_errors"]) == Some(0.0)
                && num(s, &["client_errors"]) == Some(0.0)
                && num(s, &["moves"]).unwrap_or(0.0) >= 0.95 * num(s, &["expected_moves"]).unwrap_or(f64::MAX);
            md.push_str(&format!(
                "| {} | {} | {} | {} / {} | {} | {} | {} % | {} % | {} |\n",
                label(r).replace("<br>", ", "),
                fmt(num(s, &["tables"]), 0),
                fmt(num(s, &["clients"]), 0),
                fmt(num(s, &["moves"]), 0),
                fmt(num(s, &["expected_moves"]), 0),
                fmt(num(s, &["p50_ms"]), 1),
                fmt(p99, 1),
                fmt(num(s, &["cpu_util"]).map(|x| x * 100.0), 0),
                fmt(num(s, &["driver_cpu_util"]).map(|x| x * 100.0), 0),
                if ok { "pass" } else { "fail" },
            ));
        }
    }
    if let Some(f) = &a.footer {
        md.push('\n');
        md.push_str(&std::fs::read_to_string(f).with_context(|| format!("read {f}"))?);
    }
    std::fs::write(&a.out, md).with_context(|| format!("write {}", a.out))?;
    Ok(())
}

/// Muster's ratio to each peer on each metric, Muster's default keep-alive
/// against the peers' default, low against low.
fn ratios(md: &mut String, runs: &[Value]) {
    let is_muster = |r: &Value| r.get("target").and_then(Value::as_str).is_some_and(|t| t.starts_with("muster"));
    let ka = |r: &Value| r.get("keepalive").and_then(Value::as_str).unwrap_or("?").to_string();
    let label = |r: &Value| r.get("label").and_then(Value::as_str).unwrap_or("?").to_string();
    // (name, path, higher is better)
    let metrics: [(&str, &[&str], bool); 11] = [
        ("move → last spectator p50", &["steady", "p50_ms"], false),
        ("move → last spectator p99", &["steady", "p99_ms"], false),
        ("bytes down per move per client", &["steady", "down_bytes_per_move_per_client"], false),
        ("bytes up per move", &["steady", "up_bytes_per_move"], false),
        ("server CPU per move", &["steady", "cpu_ms_per_move"], false),
        ("server RSS per connection", &["steady", "rss_kb_per_connection"], false),
        ("join burst: all in", &["join_burst", "wall_ms"], false),
        ("join burst: p99 per join", &["join_burst", "p99_ms"], false),
        ("reconnect burst: all back", &["reconnect_burst", "wall_ms"], false),
        ("reconnect burst: p99", &["reconnect_burst", "p99_ms"], false),
        ("tables per core (p99 ≤ 50 ms)", &["tables_per_core"], true),
    ];
    let mut any = false;
    for k in ["default", "low"] {
        let ms: Vec<&Value> = runs.iter().filter(|r| is_muster(r) && ka(r) == k).collect();
        let ps: Vec<&Value> = runs.iter().filter(|r| !is_muster(r) && ka(r) == k).collect();
        if ms.is_empty() || ps.is_empty() {
            continue;
        }
        if !any {
            md.push_str("\n## Muster's ratio to each peer\n\nMuster's value ÷ the peer's, same keep-alive setting on both sides. \\
**Bold** where Muster is better: a ratio below 1 for every metric except tables per core, where above 1 is better. \\
A ratio over 1.00 by less than the run-to-run noise (p99 and the search especially, see the caveats) is a tie, not a loss.\n");
            any = true;
        }
        md.push_str(&format!("\n### keep-alive {k}\n\n| metric |"));
        let mut pairs = Vec::new();
        for m in &ms {
            for p in &ps {
                md.push_str(&format!(" {} ÷ {} |", label(m), label(p)));
                pairs.push((*m, *p));
            }
        }
        md.push_str("\n|---|");
        for _ in &pairs {
            md.push_str("---:|");
        }
        md.push('\n');
        for (name, path, higher) in metrics {
            md.push_str(&format!("| {name} |"));
            for (m, p) in &pairs {
                let cell = match (num(m, path), num(p, path)) {
                    (Some(a), Some(b)) if a.is_finite() && b.is_finite() && b > 0.0 => {
                        let r = a / b;
                        let better = if higher { r > 1.0 } else { r < 1.0 };
                        let t = if r >= 10.0 { format!("{r:.0}×") } else if r >= 0.1 { format!("{r:.2}×") } else { format!("{r:.3}×") };
                        if better { format!("**{t}**") } else { t }
                    }
                    (Some(a), Some(b)) if a.is_infinite() && b.is_finite() => "Muster lost moves".into(),
                    (Some(a), Some(b)) if b.is_infinite() && a.is_finite() => "**peer lost moves**".into(),
                    _ => "—".into(),
                };
                md.push_str(&format!(" {cell} |"));
            }
            md.push('\n');
        }
    }
}
