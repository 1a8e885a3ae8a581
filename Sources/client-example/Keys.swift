import ExperimentClient

// Typed keys for every experiment of sample-data/experiments.json: one short declaration each.

/// `account_add_funds`: the variants are the cases.
enum AccountAddFunds: String, ExperimentEnum {
    case control, accountView = "account_view"
    static let key = "account_add_funds", defaultValue = AccountAddFunds.control
}

/// `app_color_scheme`: each variant's payload decoded as a colour scheme.
enum AppColorScheme: ExperimentPayload {
    struct Scheme: Decodable, Sendable {
        let accent: String
        let background: String
    }
    static let key = "app_color_scheme", defaultValue = Scheme(accent: "#0a84ff", background: "#ffffff")
}

/// `cash_projection_banner`: a flag, on for the `banner` variant, off for the control.
enum CashProjectionBanner: ExperimentFlag {
    static let key = "cash_projection_banner", onVariants: Set<String> = ["banner"]
}

enum EbookPromotion: String, ExperimentEnum {
    case control, socialShare = "social_share", newsletter
    static let key = "ebook_promotion", defaultValue = EbookPromotion.control
}

enum IAPDiscount: String, ExperimentEnum {
    case control, discount10 = "discount_10", discount20 = "discount_20"
    static let key = "iap_discount", defaultValue = IAPDiscount.control
}

enum OnboardingFlow: String, ExperimentEnum {
    case classic, videoTour = "video_tour"
    static let key = "onboarding_flow", defaultValue = OnboardingFlow.classic
}

enum PaywallType: String, ExperimentEnum {
    case a, b, c
    static let key = "paywall_type", defaultValue = PaywallType.a
}

/// `purchase_button_color`: the colour payload of the variant.
enum PurchaseButtonColor: ExperimentPayload {
    struct Color: Decodable, Sendable { let color: String }
    static let key = "purchase_button_color", defaultValue = Color(color: "#0a84ff")
}

/// Every key the example knows, in key order.
var allKeys: [any ExperimentKey.Type] { [
    AccountAddFunds.self, AppColorScheme.self, CashProjectionBanner.self, EbookPromotion.self,
    IAPDiscount.self, OnboardingFlow.self, PaywallType.self, PurchaseButtonColor.self,
] }
