//! Framing: one JSON text per line, or per u32 big-endian length-prefixed frame.

use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncReadExt, AsyncWrite, AsyncWriteExt};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framing {
    /// One JSON text per `\n`-terminated line (blank lines are skipped).
    Lines,
    /// A u32 big-endian byte length, then that many bytes of JSON.
    LengthPrefixed,
}

#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    #[error("a frame of {len} bytes is over the {max}-byte limit")]
    TooLarge { len: u64, max: usize },
    #[error("a frame of length 0")]
    Empty,
    #[error("the connection ended inside a frame")]
    Truncated,
    #[error("read failed: {0}")]
    Io(#[from] std::io::Error),
}

/// The next frame, or `None` at a clean end of stream.
pub async fn read_frame<R: AsyncBufRead + Unpin>(
    r: &mut R,
    framing: Framing,
    max: usize,
) -> Result<Option<Vec<u8>>, FrameError> {
    match framing {
        Framing::LengthPrefixed => {
            let mut len = [0u8; 4];
            let mut got = 0;
            while got < 4 {
                let n = r.read(&mut len[got..]).await?;
                if n == 0 {
                    return if got == 0 {
                        Ok(None)
                    } else {
                        Err(FrameError::Truncated)
                    };
                }
                got += n;
            }
            let len = u32::from_be_bytes(len);
            if len == 0 {
                return Err(FrameError::Empty);
            }
            if len as usize > max {
                return Err(FrameError::TooLarge {
                    len: len.into(),
                    max,
                });
            }
            let mut buf = vec![0u8; len as usize];
            r.read_exact(&mut buf).await.map_err(|e| {
                if e.kind() == std::io::ErrorKind::UnexpectedEof {
                    FrameError::Truncated
                } else {
                    FrameError::Io(e)
                }
            })?;
            Ok(Some(buf))
        }
        Framing::Lines => loop {
            let mut line = Vec::new();
            loop {
                let chunk = r.fill_buf().await?;
                if chunk.is_empty() {
                    // The last line may lack its newline.
                    return Ok(if line.iter().all(u8::is_ascii_whitespace) {
                        None
                    } else {
                        Some(line)
                    });
                }
                let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
                    Some(i) => (i + 1, true),
                    None => (chunk.len(), false),
                };
                if line.len() + take > max + 1 {
                    return Err(FrameError::TooLarge {
                        len: (line.len() + take) as u64,
                        max,
                    });
                }
                line.extend_from_slice(&chunk[..take]);
                r.consume(take);
                if done {
                    break;
                }
            }
            while line.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
                line.pop();
            }
            if !line.iter().all(u8::is_ascii_whitespace) {
                return Ok(Some(line));
            }
        },
    }
}

pub async fn write_frame<W: AsyncWrite + Unpin>(
    w: &mut W,
    framing: Framing,
    bytes: &[u8],
) -> std::io::Result<()> {
    match framing {
        Framing::Lines => {
            let mut line = Vec::with_capacity(bytes.len() + 1);
            line.extend_from_slice(bytes);
            line.push(b'\n');
            w.write_all(&line).await?;
        }
        Framing::LengthPrefixed => {
            let len = u32::try_from(bytes.len()).map_err(|_| {
                std::io::Error::new(std::io::ErrorKind::InvalidData, "response over 4 GiB")
            })?;
            // One write, so the peer wakes once per frame, not for the header and again
            // for the body.
            let mut frame = Vec::with_capacity(4 + bytes.len());
            frame.extend_from_slice(&len.to_be_bytes());
            frame.extend_from_slice(bytes);
            w.write_all(&frame).await?;
        }
    }
    w.flush().await
}

/// Drops the rest of a line [`read_frame`] refused as too large, through its newline (or
/// the end of the stream), holding no more than one buffer of it: a line-oriented peer
/// that keeps the connection is then read from its next line.
pub async fn skip_line<R: AsyncBufRead + Unpin>(r: &mut R) -> std::io::Result<()> {
    loop {
        let chunk = r.fill_buf().await?;
        if chunk.is_empty() {
            return Ok(());
        }
        match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => {
                r.consume(i + 1);
                return Ok(());
            }
            None => {
                let n = chunk.len();
                r.consume(n);
            }
        }
    }
}
