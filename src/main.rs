use clap::Parser;

fn main() {
    let cli = sim::cli::Cli::parse();
    if let Err(e) = sim::cli::main_with(cli) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
