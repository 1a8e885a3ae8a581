import Foundation

extension Distributions {
    /// Φ(x), the standard normal CDF; accurate in the lower tail down to the smallest doubles.
    public static func normalCDF(_ x: Double) -> Double {
        0.5 * erfc(-x * 0.707_106_781_186_547_524_4)
    }

    /// 1 − Φ(x), the standard normal upper tail, computed directly.
    public static func normalSurvival(_ x: Double) -> Double {
        0.5 * erfc(x * 0.707_106_781_186_547_524_4)
    }

    /// The standard normal density φ(x).
    public static func normalPDF(_ x: Double) -> Double {
        exp(-0.5 * x * x) * 0.398_942_280_401_432_677_94
    }

    /// Φ⁻¹(p): Wichura's AS 241 (PPND16), then one Newton step on `erfc`; −∞ at 0, +∞ at 1, NaN outside.
    public static func normalQuantile(_ p: Double) -> Double {
        guard p >= 0, p <= 1 else { return .nan }
        if p == 0 { return -.infinity }
        if p == 1 { return .infinity }
        let x = wichura(p)
        // Refine against the tail that p stands for, so tiny p keep their relative accuracy.
        if p < 0.5 {
            let step = (normalCDF(x) - p) / normalPDF(x)
            return step.isFinite ? x - step : x
        } else {
            let step = (normalSurvival(x) - (1 - p)) / normalPDF(x)
            return step.isFinite ? x + step : x
        }
    }

    /// Wichura (1988), Algorithm AS 241: rational approximations, about 1e-16 relative.
    static func wichura(_ p: Double) -> Double {
        let q = p - 0.5
        if abs(q) <= 0.425 {
            let r = 0.180625 - q * q
            let num = (((((((2.50908_09287_30122_6727e+3 * r
                + 3.34305_75583_58812_8105e+4) * r
                + 6.72657_70927_00870_0853e+4) * r
                + 4.59219_53931_54987_1457e+4) * r
                + 1.37316_93765_50946_1125e+4) * r
                + 1.97159_09503_06551_4427e+3) * r
                + 1.33141_66789_17843_7745e+2) * r
                + 3.38713_28727_96366_6080e+0) * q
            let den = ((((((5.22649_52788_52854_5610e+3 * r
                + 2.87290_85735_72194_2674e+4) * r
                + 3.93078_95800_09271_0610e+4) * r
                + 2.12137_94301_58659_5867e+4) * r
                + 5.39419_60214_24751_1077e+3) * r
                + 6.87187_00749_20579_0830e+2) * r
                + 4.23133_30701_60091_1252e+1) * r
                + 1.0
            return num / den
        }
        var r = (-log(q < 0 ? p : 1 - p)).squareRoot()
        let num: Double
        let den: Double
        if r <= 5 {
            r -= 1.6
            num = ((((((7.74545_01427_83414_07640e-4 * r
                + 2.27238_44989_26918_45833e-2) * r
                + 2.41780_72517_74506_11770e-1) * r
                + 1.27045_82524_52368_38258e+0) * r
                + 3.64784_83247_63204_60504e+0) * r
                + 5.76949_72214_60691_40550e+0) * r
                + 4.63033_78461_56545_29590e+0) * r
                + 1.42343_71107_49683_57734e+0
            den = ((((((1.05075_00716_44416_84324e-9 * r
                + 5.47593_80849_95344_94600e-4) * r
                + 1.51986_66563_61645_71966e-2) * r
                + 1.48103_97642_74800_74590e-1) * r
                + 6.89767_33498_51000_04550e-1) * r
                + 1.67638_48301_83803_84940e+0) * r
                + 2.05319_16266_37758_82187e+0) * r
                + 1.0
        } else {
            r -= 5
            num = ((((((2.01033_43992_92288_13265e-7 * r
                + 2.71155_55687_43487_57815e-5) * r
                + 1.24266_09473_88078_43860e-3) * r
                + 2.65321_89526_57612_30930e-2) * r
                + 2.96560_57182_85048_91230e-1) * r
                + 1.78482_65399_17291_33580e+0) * r
                + 5.46378_49111_64114_36990e+0) * r
                + 6.65790_46435_01103_77720e+0
            den = ((((((2.04426_31033_89939_78564e-15 * r
                + 1.42151_17583_16445_88870e-7) * r
                + 1.84631_83175_10054_68180e-5) * r
                + 7.86869_13114_56132_59100e-4) * r
                + 1.48753_61290_85061_48525e-2) * r
                + 1.36929_88092_27358_05310e-1) * r
                + 5.99832_20655_58879_37690e-1) * r
                + 1.0
        }
        let x = num / den
        return q < 0 ? -x : x
    }
}
