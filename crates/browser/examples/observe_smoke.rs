use arc_browser::backend::{BrowserBackend, BrowserOptions};
use arc_browser::StaticServer;
use arc_core::view::{render, ViewOptions};
use arc_core::Backend;

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let server = StaticServer::start("/work/main/fixtures/site")
        .await
        .unwrap();
    let mut b = BrowserBackend::start(BrowserOptions::default(), &server.url(&args[0]))
        .await
        .unwrap();
    for _ in 0..3 {
        let t = std::time::Instant::now();
        let s = b.observe().await.unwrap();
        let el = t.elapsed();
        let v = render(&s, &ViewOptions::default());
        println!(
            "{} elements in {:?}, {} tokens\n{}",
            s.elements.len(),
            el,
            v.tokens,
            v.text
        );
    }
    let t = std::time::Instant::now();
    let p = b.settle_probe().await.unwrap();
    println!("probe {:?} {:?}", t.elapsed(), p);
}
