//! A real window under Xvfb: start an X server of our own on a free
//! display, run the real `muster` binary on it, and read the screen back.
//!
//! Xvfb is started with `-fbdir`, so it keeps its framebuffer in a file in
//! XWD format (`Xvfb_screen0`): the screenshot is read straight from there
//! and decoded here, so no screenshot tool needs installing. eframe draws
//! with wgpu on mesa's software GL (llvmpipe) through EGL, exactly as a
//! person's desktop without a GPU would.
//!
//! [`run_window`] is the reusable part: the arguments for `muster`, and a
//! condition on the screen that says the window shows what the test wants.

use image::RgbImage;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Screen size; the window asks for 1280 × 800 (see main.rs).
pub const WIDTH: u32 = 1280;
pub const HEIGHT: u32 = 800;

/// An Xvfb server of this test's own, stopped on drop.
pub struct Xvfb {
    child: Child,
    pub display: u32,
    dir: tempfile::TempDir,
}

impl Xvfb {
    /// Start Xvfb on a free display. `Err` says why it cannot (not
    /// installed, did not come up).
    pub fn start() -> Result<Xvfb, String> {
        let bin = which("Xvfb").ok_or("Xvfb is not installed (Debian package `xvfb`)")?;
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        // Displays from 100 + a bit of the pid, skipping any in use, so
        // tests in parallel and a desktop's :0 do not collide.
        let first = 100 + std::process::id() % 400;
        for display in first..first + 50 {
            if Path::new(&format!("/tmp/.X11-unix/X{display}")).exists()
                || Path::new(&format!("/tmp/.X{display}-lock")).exists()
            {
                continue;
            }
            let log =
                std::fs::File::create(dir.path().join("xvfb.log")).map_err(|e| e.to_string())?;
            let mut child = Command::new(&bin)
                .arg(format!(":{display}"))
                .args(["-screen", "0", &format!("{WIDTH}x{HEIGHT}x24")])
                .arg("-fbdir")
                .arg(dir.path())
                .args(["-nolisten", "tcp", "-noreset"])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(log)
                .spawn()
                .map_err(|e| format!("cannot start Xvfb: {e}"))?;
            let socket = PathBuf::from(format!("/tmp/.X11-unix/X{display}"));
            let end = Instant::now() + Duration::from_secs(10);
            loop {
                if let Ok(Some(_)) = child.try_wait() {
                    break; // lost a race for the display: try the next
                }
                if socket.exists() && dir.path().join("Xvfb_screen0").exists() {
                    return Ok(Xvfb {
                        child,
                        display,
                        dir,
                    });
                }
                if Instant::now() > end {
                    let _ = child.kill();
                    let _ = child.wait();
                    let log =
                        std::fs::read_to_string(dir.path().join("xvfb.log")).unwrap_or_default();
                    return Err(format!("Xvfb :{display} did not come up in 10 s: {log}"));
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        Err("no free X display number".into())
    }

    /// The whole screen as it is now.
    pub fn screenshot(&self) -> Result<RgbImage, String> {
        let bytes =
            std::fs::read(self.dir.path().join("Xvfb_screen0")).map_err(|e| e.to_string())?;
        decode_xwd(&bytes)
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A process killed on drop (so a failing test leaves nothing running).
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Run `program args…` on `x`'s display until `ready` holds for the
/// screen (checked every 250 ms, at most `limit`), then return that
/// screen. The program is stopped either way; its output is in the error
/// when it exits or the screen never gets ready.
pub fn run_window(
    x: &Xvfb,
    program: &str,
    args: &[&str],
    limit: Duration,
    ready: impl Fn(&RgbImage) -> bool,
) -> Result<RgbImage, String> {
    let log_path = x.dir.path().join("program.log");
    let log = std::fs::File::create(&log_path).map_err(|e| e.to_string())?;
    let mut child = Killed(
        Command::new(program)
            .args(args)
            .env("DISPLAY", format!(":{}", x.display))
            // X11 only, whatever the desktop running the tests has.
            .env_remove("WAYLAND_DISPLAY")
            .env("WINIT_UNIX_BACKEND", "x11")
            .stdin(Stdio::null())
            .stdout(log.try_clone().map_err(|e| e.to_string())?)
            .stderr(log)
            .spawn()
            .map_err(|e| format!("cannot start {program}: {e}"))?,
    );
    let end = Instant::now() + limit;
    loop {
        std::thread::sleep(Duration::from_millis(250));
        if let Ok(Some(status)) = child.0.try_wait() {
            let out = std::fs::read_to_string(&log_path).unwrap_or_default();
            return Err(format!(
                "{program} exited ({status}) before the window was ready:\n{out}"
            ));
        }
        let shot = x.screenshot()?;
        if ready(&shot) {
            return Ok(shot);
        }
        if Instant::now() > end {
            let _ = shot.save(std::env::temp_dir().join("muster_window_not_ready.png"));
            let out = std::fs::read_to_string(&log_path).unwrap_or_default();
            return Err(format!(
                "the window was not ready within {limit:?} (last screen in the temp dir as \
                 muster_window_not_ready.png); {program}'s output:\n{out}"
            ));
        }
    }
}

/// Decode an XWD image (the format Xvfb's `-fbdir` keeps its screen in):
/// a header of big-endian 32-bit fields, the window name, a colour map,
/// then the pixels. Only the TrueColor formats Xvfb writes (24 or 32 bits
/// per pixel) are read.
pub fn decode_xwd(bytes: &[u8]) -> Result<RgbImage, String> {
    let field = |i: usize| -> Result<u32, String> {
        bytes
            .get(i * 4..i * 4 + 4)
            .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
            .ok_or_else(|| "XWD header cut short".to_string())
    };
    let header_size = field(0)? as usize;
    let (width, height) = (field(4)?, field(5)?);
    let byte_order = field(7)?; // 0 = least significant byte first
    let bits_per_pixel = field(11)?;
    let bytes_per_line = field(12)? as usize;
    let (red_mask, green_mask, blue_mask) = (field(14)?, field(15)?, field(16)?);
    let ncolors = field(19)? as usize;
    if bits_per_pixel != 32 && bits_per_pixel != 24 {
        return Err(format!(
            "XWD with {bits_per_pixel} bits per pixel is not supported"
        ));
    }
    let start = header_size + ncolors * 12;
    let need = start + bytes_per_line * height as usize;
    if bytes.len() < need {
        return Err(format!("XWD holds {} bytes, needs {need}", bytes.len()));
    }
    let step = (bits_per_pixel / 8) as usize;
    let channel = |pixel: u32, mask: u32| -> u8 {
        if mask == 0 {
            return 0;
        }
        ((pixel & mask) >> mask.trailing_zeros()) as u8
    };
    let mut img = RgbImage::new(width, height);
    for y in 0..height {
        let row = &bytes[start + y as usize * bytes_per_line..];
        for x in 0..width {
            let p = &row[x as usize * step..x as usize * step + step];
            let mut b = [0u8; 4];
            b[..step].copy_from_slice(p);
            let pixel = if byte_order == 0 {
                u32::from_le_bytes(b)
            } else {
                let mut be = [0u8; 4];
                be[4 - step..].copy_from_slice(p);
                u32::from_be_bytes(be)
            };
            img.put_pixel(
                x,
                y,
                image::Rgb([
                    channel(pixel, red_mask),
                    channel(pixel, green_mask),
                    channel(pixel, blue_mask),
                ]),
            );
        }
    }
    Ok(img)
}

fn which(program: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")?
        .to_str()?
        .split(':')
        .map(|d| Path::new(d).join(program))
        .find(|p| p.is_file())
}

/// How many distinct colours `img` has (counted on a sample grid).
pub fn colours(img: &RgbImage) -> usize {
    let mut seen = std::collections::BTreeSet::new();
    for y in (0..img.height()).step_by(3) {
        for x in (0..img.width()).step_by(3) {
            seen.insert(img.get_pixel(x, y).0);
        }
    }
    seen.len()
}

/// Pixels in `rect` (x, y, w, h) within `tolerance` of `rgb` on every channel.
pub fn pixels_near(
    img: &RgbImage,
    rect: (u32, u32, u32, u32),
    rgb: [u8; 3],
    tolerance: u8,
) -> usize {
    let (x0, y0, w, h) = rect;
    let mut n = 0;
    for y in y0..(y0 + h).min(img.height()) {
        for x in x0..(x0 + w).min(img.width()) {
            let p = img.get_pixel(x, y).0;
            if (0..3).all(|i| p[i].abs_diff(rgb[i]) <= tolerance) {
                n += 1;
            }
        }
    }
    n
}
