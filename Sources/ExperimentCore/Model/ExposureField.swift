/// The fields of an exposure row (SPEC §8), in the order `results` reads them: the one list the
/// client's exposure log writes and the results reader asks for.
public enum ExposureField: String, CaseIterable, CodingKey, Sendable {
    case timestamp, experiment, variant, subject
}
