#include "hdae/models/iti_example1.hpp"

#include <array>
#include <utility>

#include "parameter_fields.hpp"

namespace hdae::models {

namespace {

using P = ItiExample1Parameters;
const std::array<detail::ParameterField<P>, 1> kFields = {{
    {{.name = "x2_start", .description = "start value of x2 (a guess: the equations give x2 = 1)"},
     [](P& p) -> double& { return p.x2_start; }},
}};

}  // namespace

ItiExample1::ItiExample1(ItiExample1Parameters p) : PhysicsModelOf("iti_example1"), p_(p) {
  detail::declare_fields<P>(kFields, p_,
                            [this](ParameterInfo i) { declare_parameter(std::move(i)); });
  x1_ = declare_variable({.name = "x1"});
  x2_ = declare_variable({.name = "x2", .start = p_.x2_start});
  prescribed_ = declare_equation("x1 = t");
  derivative_ = declare_equation("x2 = der(x1)");
}

void ItiExample1::parameters_changed() {
  p_ = detail::read_fields<P>(kFields, structure(), p_);
  set_start(x2_, p_.x2_start);
}

std::unique_ptr<IndexReducedModel> make_iti_example1(ItiExample1Parameters p) {
  return std::make_unique<IndexReducedModel>(std::make_unique<ItiExample1>(p));
}

}  // namespace hdae::models
