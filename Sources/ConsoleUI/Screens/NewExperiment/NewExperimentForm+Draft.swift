import ExperimentCore
import ExperimentEditing

extension NewExperimentForm {
    /// The draft the form describes, or the first reason it cannot be created (key, weights, sum).
    func draft(existing: [String: Experiment]) -> Result<ExperimentDraft, FormProblem> {
        let key = self.key.text.trimmingSpaces
        guard !key.isEmpty else { return .failure(FormProblem("type a key for the experiment, e.g. checkout_button", field: .key)) }
        guard Identifier.isValidName(key) else { return .failure(FormProblem(ExperimentError.invalidKey(key).message, field: .key)) }
        guard existing[key] == nil else { return .failure(FormProblem(ExperimentError.experimentExists(key).message, field: .key)) }
        let variants: [(name: String, weight: Weight)]
        switch Self.parseVariants(self.variants.text, key: key) {
        case .success(let parsed): variants = parsed
        case .failure(let problem): return .failure(problem)
        }
        guard description.text.count <= StoreSnapshot.maxTextLength else {
            return .failure(FormProblem(ExperimentError.textTooLong(field: "description", limit: StoreSnapshot.maxTextLength).message, field: .description))
        }
        return .success(ExperimentDraft(key: key, type: type, variants: variants, description: description.text))
    }

    /// `control=50, treatment=50` as named weights that add up to 100 % at most.
    static func parseVariants(_ text: String, key: String) -> Result<[(name: String, weight: Weight)], FormProblem> {
        func problem(_ message: String) -> Result<[(name: String, weight: Weight)], FormProblem> { .failure(FormProblem(message, field: .variants)) }
        guard !text.trimmingSpaces.isEmpty else { return problem("type the variants with their weights, e.g. control=50,treatment=50") }
        var variants: [(name: String, weight: Weight)] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false).map({ String($0).trimmingSpaces }) {
            guard let equals = part.firstIndex(of: "=") else {
                return problem("`\(part)` is not name=weight; write the variants as control=50,treatment=50")
            }
            let name = String(part[..<equals]).trimmingSpaces, percent = String(part[part.index(after: equals)...]).trimmingSpaces
            guard Identifier.isValidName(name) else { return problem(ExperimentError.invalidVariantName(name).message) }
            guard !variants.contains(where: { $0.name == name }) else { return problem(ExperimentError.duplicateVariant(name).message) }
            switch Weight.parse(percent: percent) {
            case .success(let weight): variants.append((name, weight))
            case .failure(let error): return problem("`\(name)`: " + ExperimentError.invalidWeight(text: percent, reason: error.reason).message)
            }
        }
        let total = variants.reduce(0) { $0 + $1.weight.buckets }
        guard total <= Weight.bucketCount else { return problem(ExperimentError.weightsOverHundred(experiment: key, total: Weight(buckets: total)).message) }
        return .success(variants)
    }
}

/// Why a form cannot be saved, and the field to fix.
struct FormProblem: Error, Equatable {
    let message: String
    let field: NewExperimentForm.Field

    init(_ message: String, field: NewExperimentForm.Field) {
        self.message = message
        self.field = field
    }
}

extension String {
    /// The text without leading and trailing spaces.
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
