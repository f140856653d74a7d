/* Robertson's chemical kinetics in the DAE form of fmi-ls-dae: value references 1 dae (the
 * Boolean structural parameter of DAE mode), 2 y1, 3 der(y1), 4 y2, 5 der(y2), 6 y3 (the
 * algebraic variable), 7 r (the residual), 8 and 9 the event indicators. */
#define MODEL_VARIABLES 10
#define MODEL_STATES 2
#define MODEL_INDICATORS 2
#define MODEL_TOKEN "{hdae-test-robertson}"
#define MODEL_PARTIALS
