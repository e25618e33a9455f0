fn main() {
    let matches = sim::cli::command().get_matches();
    if let Err(e) = sim::cli::main_with(&matches) {
        eprintln!("error: {}", e.message());
        std::process::exit(e.code());
    }
}
