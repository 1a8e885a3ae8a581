/// The `serve` command's answers (SPEC §13): OFREP evaluation, exposure intake, health, access.
enum ExperimentServerNamespace {}
