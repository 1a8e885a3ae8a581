import ExperimentCore

extension ExperimentClient {
    /// The subject values are decided for.
    public var subject: Subject { lock.withLock { state.subject } }

    /// Switches to `subject` (e.g. after login); invalid ids are treated as missing and reported.
    /// - Returns: the keys whose value changed.
    @discardableResult
    public func setSubject(_ subject: Subject) -> Set<String> {
        let (checked, reports) = Self.checked(subject)
        return mutate(reports: reports) { $0.subject = checked }
    }

    /// Forces `key` to variant `variant` (nil removes the override): overrides beat every rule and
    /// are reported as overrides. For QA and debug menus.
    /// - Returns: the keys whose value changed.
    @discardableResult
    public func setOverride(_ variant: String?, forKey key: String) -> Set<String> {
        mutate { $0.overrides[key] = variant }
    }

    /// Forces the experiment of `key` to variant `variant` (nil removes the override).
    @discardableResult
    public func setOverride<Key: ExperimentKey>(_ variant: String?, for key: Key.Type) -> Set<String> {
        setOverride(variant, forKey: Key.key)
    }

    /// Removes every override.
    @discardableResult
    public func removeAllOverrides() -> Set<String> {
        mutate { $0.overrides.removeAll() }
    }

    /// The overrides in force: variant by experiment key.
    public var overrides: [String: String] { lock.withLock { state.overrides } }
}
