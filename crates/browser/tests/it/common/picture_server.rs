//! A loopback HTTP server that sends a small SVG picture late: `GET /<delay ms>/<name>.svg`
//! answers after that many milliseconds. For pages whose icons arrive after the page
//! is observed.

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

const PICTURE: &str = "<svg xmlns='http://www.w3.org/2000/svg' width='16' height='16'>\
                       <rect width='16' height='16' fill='#c33'/></svg>";

/// Starts the server; its origin (`http://127.0.0.1:PORT`). It lives as long as the
/// test's runtime.
pub async fn late_pictures() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("binds");
    let origin = format!("http://{}", listener.local_addr().expect("an address"));
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut head = Vec::new();
                let mut buf = [0u8; 1024];
                while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 8192 {
                    match stream.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => head.extend_from_slice(&buf[..n]),
                    }
                }
                let head = String::from_utf8_lossy(&head);
                let path = head.split(' ').nth(1).unwrap_or_default();
                let delay = path
                    .trim_start_matches('/')
                    .split('/')
                    .next()
                    .and_then(|d| d.parse().ok())
                    .unwrap_or(0);
                tokio::time::sleep(std::time::Duration::from_millis(delay)).await;
                let answer = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: image/svg+xml\r\nContent-Length: {}\r\n\
                     Cache-Control: max-age=600\r\nConnection: close\r\n\r\n{PICTURE}",
                    PICTURE.len()
                );
                let _ = stream.write_all(answer.as_bytes()).await;
            });
        }
    });
    origin
}
