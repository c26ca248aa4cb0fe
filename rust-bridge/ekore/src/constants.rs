//! Numerical constants and QCD colour factors (SU(3), as eko's `eko.constants`).

pub const CA: f64 = 3.0;
pub const CF: f64 = 4.0 / 3.0;
pub const TR: f64 = 0.5;

pub const EULER_GAMMA: f64 = 0.577_215_664_901_532_9;
pub const LN2: f64 = std::f64::consts::LN_2;
pub const ZETA2: f64 = 1.644_934_066_848_226_4;
pub const ZETA3: f64 = 1.202_056_903_159_594_3;
pub const ZETA4: f64 = 1.082_323_233_711_138_2;
pub const ZETA5: f64 = 1.036_927_755_143_369_9;
