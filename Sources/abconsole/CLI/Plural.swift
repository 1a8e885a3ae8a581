/// Counted nouns for messages: `1 experiment`, `2 experiments`.
enum Plural {
    static func count(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
    }
}
