//! One output stream of the program read into memory up to a cap; past the cap the run is
//! killed and nothing more is kept.

use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread;

use super::process::Group;

pub struct Capture {
    bytes: Arc<Mutex<Vec<u8>>>,
}

impl Capture {
    /// Reads `stream` on a thread of its own; sends on `drained` when it reaches the end.
    pub fn start(
        stream: Option<impl Read + Send + 'static>,
        cap: usize,
        group: &Arc<Group>,
        flooded: &Arc<AtomicBool>,
        drained: &mpsc::Sender<()>,
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
                    sink.extend_from_slice(&chunk[..read.min(room)]);
                    if read > room {
                        flooded.store(true, Ordering::SeqCst);
                        group.kill();
                        break;
                    }
                }
            }
            let _ = drained.send(());
        });
        Capture { bytes }
    }

    pub fn take(self) -> Vec<u8> {
        std::mem::take(&mut *self.bytes.lock().expect("capture lock"))
    }
}
