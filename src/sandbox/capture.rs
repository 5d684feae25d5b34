//! A run's stdout and stderr, each read into memory on a thread of its own up to a cap;
//! past the cap the run is killed and nothing more is kept.

use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use super::process::Group;
use super::relay::Relay;

/// How long the output readers may go on after the program ended: only a process that
/// escaped the run can still hold the pipes open.
const DRAIN_GRACE: Duration = Duration::from_millis(200);

/// Both streams of one run, being read.
pub struct Output {
    stdout: Capture,
    stderr: Capture,
    flooded: Arc<AtomicBool>,
    /// One message per stream that reached its end.
    drained: mpsc::Receiver<()>,
}

impl Output {
    /// Reads `stdout` and `stderr` (each at most `cap` bytes) until they end; past the
    /// cap, `group` is killed. What stdout says is also passed on through `relay`, when
    /// the run is in a conversation.
    pub fn start(
        stdout: Option<impl Read + Send + 'static>,
        stderr: Option<impl Read + Send + 'static>,
        cap: usize,
        group: &Arc<Group>,
        relay: Option<Arc<Relay>>,
    ) -> Output {
        let flooded = Arc::new(AtomicBool::new(false));
        let (drained_tx, drained) = mpsc::channel();
        Output {
            stdout: Capture::start(stdout, cap, group, &flooded, &drained_tx, relay),
            stderr: Capture::start(stderr, cap, group, &flooded, &drained_tx, None),
            flooded,
            drained,
        }
    }

    /// Once the run has ended: waits (at most [`DRAIN_GRACE`]) for both streams to reach
    /// their end, and gives what they held. Whether the run printed past the cap is known
    /// only then: a program may print its last bytes and end before they are read.
    pub fn finish(self) -> Captured {
        let deadline = Instant::now() + DRAIN_GRACE;
        for _ in 0..2 {
            let left = deadline.saturating_duration_since(Instant::now());
            if self.drained.recv_timeout(left).is_err() {
                break;
            }
        }
        Captured {
            stdout: self.stdout.take(),
            stderr: self.stderr.take(),
            flooded: self.flooded.load(Ordering::SeqCst),
        }
    }
}

/// What a run printed.
pub struct Captured {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// It printed past the cap, and was killed for it.
    pub flooded: bool,
}

struct Capture {
    bytes: Arc<Mutex<Vec<u8>>>,
}

impl Capture {
    /// Reads `stream` on a thread of its own, passing it on through `relay` if there is one;
    /// sends on `drained` when it reaches the end.
    fn start(
        stream: Option<impl Read + Send + 'static>,
        cap: usize,
        group: &Arc<Group>,
        flooded: &Arc<AtomicBool>,
        drained: &mpsc::Sender<()>,
        relay: Option<Arc<Relay>>,
    ) -> Capture {
        let bytes = Arc::new(Mutex::new(Vec::new()));
        let (sink, group, flooded, drained) = (
            Arc::clone(&bytes),
            Arc::clone(group),
            Arc::clone(flooded),
            drained.clone(),
        );
        thread::spawn(move || {
            if let Some(mut stream) = stream {
                let mut chunk = [0u8; 16 * 1024];
                loop {
                    let read = match stream.read(&mut chunk) {
                        Ok(0) | Err(_) => break,
                        Ok(read) => read,
                    };
                    let mut sink = sink.lock().expect("capture lock");
                    let room = cap.saturating_sub(sink.len());
                    let kept = &chunk[..read.min(room)];
                    sink.extend_from_slice(kept);
                    drop(sink);
                    if let Some(relay) = &relay {
                        relay.pass(kept);
                    }
                    if read > room {
                        flooded.store(true, Ordering::SeqCst);
                        group.kill();
                        break;
                    }
                }
            }
            if let Some(relay) = &relay {
                relay.close();
            }
            let _ = drained.send(());
        });
        Capture { bytes }
    }

    fn take(self) -> Vec<u8> {
        std::mem::take(&mut *self.bytes.lock().expect("capture lock"))
    }
}
