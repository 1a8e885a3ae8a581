import ExperimentCore

/// What `advance` decides for one experiment under a ramp plan (SPEC §14), and why.
package struct RolloutDecision: Equatable, Sendable {
    /// The decision's word, as `advance --json` prints it.
    package enum Action: String, Equatable, Sendable {
        /// Ramped to the next step (not the last).
        case advance
        /// A condition is not met yet: nothing is written.
        case hold
        /// Ramped back to the weights the plan started from; the plan is over.
        case rollback
        /// Ramped to the last step: the plan is done.
        case done
        /// Nothing to decide: no active plan with a step to go on a running experiment.
        case none
    }

    package var experiment: String
    package var action: Action
    /// The plan's step after the decision, 1-based (0 without a plan).
    package var step: Int
    /// How many steps the plan has (0 without a plan).
    package var steps: Int
    /// The experiment's weights after the decision, in variant order.
    package var weights: [NamedWeight]
    /// Why, in words: the evidence behind an advance, what a hold waits for, what a rollback answers.
    package var reason: String

    package init(experiment: String, action: Action, step: Int, steps: Int, weights: [NamedWeight], reason: String) {
        self.experiment = experiment
        self.action = action
        self.step = step
        self.steps = steps
        self.weights = weights
        self.reason = reason
    }
}
