//! `arc-cua host --stdio`: one connection, JSON lines on stdin and stdout.

use super::{serve, Framing};
use crate::host::Host;
use tokio::io::BufReader;

pub async fn serve_stdio(host: Host) {
    let stdin = BufReader::new(tokio::io::stdin());
    serve(host, stdin, tokio::io::stdout(), Framing::Lines).await;
}
