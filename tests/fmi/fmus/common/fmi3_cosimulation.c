/* The FMI 3.0 Co-Simulation functions of a test FMU, over its Model Exchange functions
 * (fmi3_model.c): fmi3DoStep integrates the model with the classical Runge-Kutta method of
 * order 4 in substeps of at most kSubstep, each ending at the model's next event time if that
 * comes first, and after each substep handles an event indicator that changed sign or a next
 * event time that was reached with the discrete-state updates. When the importer allows early
 * return, a step ends after the first substep with an event (a time event exactly at its
 * time). When the importer uses Event Mode (for an FMU whose description declares
 * hasEventMode), a step ends after such a substep with eventHandlingNeeded instead, and the
 * importer calls the discrete-state updates. The substeps make the values at the communication
 * points those of the closed form to far below the tolerances of the tests (the error of the method
 * is of order kSubstep^4). */
#include <math.h>
#include <stddef.h>

#include "fmi3_api.h"
#include "model.h"

fmi3InstantiateCoSimulationFn fmi3InstantiateCoSimulation;
fmi3DoStepFn fmi3DoStep;
fmi3InstanceFn fmi3EnterStepMode;
/* The Model Exchange functions of fmi3_model.c. */
fmi3InstantiateModelExchangeFn fmi3InstantiateModelExchange;
fmi3InstanceFn fmi3EnterEventMode;
fmi3UpdateDiscreteStatesFn fmi3UpdateDiscreteStates;
fmi3SetTimeFn fmi3SetTime;
fmi3SetContinuousStatesFn fmi3SetContinuousStates;
fmi3GetArrayFn fmi3GetContinuousStates, fmi3GetContinuousStateDerivatives, fmi3GetEventIndicators;

static const double kSubstep = 1e-3;

/* Arrays of the states and indicators, one longer so that a model without any has some. */
typedef double States[MODEL_STATES + 1];
typedef double Indicators[MODEL_INDICATORS + 1];

fmi3Instance fmi3InstantiateCoSimulation(fmi3String instance_name, fmi3String token,
                                         fmi3String resource_path, fmi3Boolean visible,
                                         fmi3Boolean logging_on, fmi3Boolean event_mode_used,
                                         fmi3Boolean early_return_allowed,
                                         const fmi3ValueReference required_intermediate_variables[],
                                         size_t required_count, fmi3InstanceEnvironment environment,
                                         fmi3LogMessageCallback log_message,
                                         fmi3IntermediateUpdateCallback intermediate_update) {
  (void)required_intermediate_variables, (void)required_count, (void)intermediate_update;
  fmi3Instance instance = fmi3InstantiateModelExchange(instance_name, token, resource_path, visible,
                                                       logging_on, environment, log_message);
  if (instance != NULL) {
    ((ModelData*)instance)->early_return_allowed = early_return_allowed;
    ((ModelData*)instance)->event_mode_used = event_mode_used;
  }
  return instance;
}

fmi3Status fmi3EnterStepMode(fmi3Instance instance) {
  (void)instance;
  return fmi3OK;
}

/* The derivatives at (t, x) into der_x. */
static fmi3Status derivatives(fmi3Instance instance, double t, const double x[], double der_x[]) {
  if (fmi3SetTime(instance, t) != fmi3OK) return fmi3Error;
  if (fmi3SetContinuousStates(instance, x, MODEL_STATES) != fmi3OK) return fmi3Error;
  return fmi3GetContinuousStateDerivatives(instance, der_x, MODEL_STATES);
}

/* One step of the classical Runge-Kutta method from t over h; the states are left at t + h. */
static fmi3Status rk4_step(fmi3Instance instance, double t, double h) {
  States x, k1, k2, k3, k4, y;
  if (fmi3GetContinuousStates(instance, x, MODEL_STATES) != fmi3OK) return fmi3Error;
  if (derivatives(instance, t, x, k1) != fmi3OK) return fmi3Error;
  for (int i = 0; i < MODEL_STATES; ++i) y[i] = x[i] + 0.5 * h * k1[i];
  if (derivatives(instance, t + 0.5 * h, y, k2) != fmi3OK) return fmi3Error;
  for (int i = 0; i < MODEL_STATES; ++i) y[i] = x[i] + 0.5 * h * k2[i];
  if (derivatives(instance, t + 0.5 * h, y, k3) != fmi3OK) return fmi3Error;
  for (int i = 0; i < MODEL_STATES; ++i) y[i] = x[i] + h * k3[i];
  if (derivatives(instance, t + h, y, k4) != fmi3OK) return fmi3Error;
  for (int i = 0; i < MODEL_STATES; ++i) {
    y[i] = x[i] + h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
  }
  if (fmi3SetTime(instance, t + h) != fmi3OK) return fmi3Error;
  return fmi3SetContinuousStates(instance, y, MODEL_STATES);
}

/* The discrete-state updates at the instant the substep ended on, when an indicator changed
 * between > 0 and <= 0 or the model's next event time was reached; left to the importer when
 * it uses Event Mode. */
static fmi3Status handle_events(fmi3Instance instance, double t, const double before[],
                                fmi3Boolean* terminate, int* event) {
  const ModelData* m = (const ModelData*)instance; /* the instance begins with its model */
  Indicators after;
  if (fmi3GetEventIndicators(instance, after, MODEL_INDICATORS) != fmi3OK) return fmi3Error;
  *event = m->next_event_defined && t >= m->next_event;
  for (int i = 0; i < MODEL_INDICATORS; ++i) *event = *event || (before[i] > 0) != (after[i] > 0);
  if (!*event || m->event_mode_used) return fmi3OK;
  fmi3Boolean needs = true, nominals = false, values = false, defined = false;
  double next = 0.0;
  if (fmi3EnterEventMode(instance) != fmi3OK) return fmi3Error;
  while (needs && !*terminate) {
    if (fmi3UpdateDiscreteStates(instance, &needs, terminate, &nominals, &values, &defined,
                                 &next) != fmi3OK) {
      return fmi3Error;
    }
  }
  return fmi3OK;
}

fmi3Status fmi3DoStep(fmi3Instance instance, fmi3Float64 t, fmi3Float64 h,
                      fmi3Boolean no_prior_state, fmi3Boolean* event_handling_needed,
                      fmi3Boolean* terminate, fmi3Boolean* early_return, fmi3Float64* last_time) {
  (void)no_prior_state;
  *event_handling_needed = false;
  *terminate = false;
  *early_return = false;
  *last_time = t;
  const ModelData* m = (const ModelData*)instance;
  const int substeps = h > kSubstep ? (int)ceil(h / kSubstep) : 1;
  double from = t;
  for (int k = 0; k < substeps; ++k) {
    double to = k + 1 == substeps ? t + h : t + h * (k + 1) / substeps;
    /* A time event inside the substep ends it, so that the event comes at its own time. */
    const int time_event = m->next_event_defined && m->next_event > from && m->next_event < to;
    if (time_event) to = m->next_event;
    Indicators before;
    if (fmi3GetEventIndicators(instance, before, MODEL_INDICATORS) != fmi3OK) return fmi3Error;
    if (rk4_step(instance, from, to - from) != fmi3OK) return fmi3Error;
    if (fmi3SetTime(instance, to) != fmi3OK) return fmi3Error;
    int event = 0;
    if (handle_events(instance, to, before, terminate, &event) != fmi3OK) return fmi3Error;
    *last_time = to;
    if (*terminate) return fmi3OK;
    if (event && m->event_mode_used) {
      *event_handling_needed = true;
      *early_return = to < t + h;
      return fmi3OK;
    }
    if (event && m->early_return_allowed && to < t + h) {
      *early_return = true;
      return fmi3OK;
    }
    from = to;
    if (time_event) --k; /* the substep ended at the event: the rest of it comes next */
  }
  return fmi3OK;
}
