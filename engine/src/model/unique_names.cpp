#include "model/unique_names.hpp"

#include <algorithm>
#include <functional>
#include <utility>
#include <vector>

#include "model/name_template.hpp"

namespace hdae::detail {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// One number in a name: a run of digits of its literal text, or a placeholder.
struct Number {
  bool placeholder = false;
  long long offset = 0;  ///< a placeholder stands for the member's number + offset
  std::string digits;    ///< a literal run of digits
};

/// The names of a source split at their numbers: the text between the numbers (the signature,
/// each piece length-prefixed so that no two lists of pieces read alike) and the numbers.
/// Canonical when every name of the source splits into these same pieces at its digit runs: no
/// placeholder touches a digit or another placeholder, and none stands for a negative number
/// (whose sign would be text). Two names of canonical shapes are equal exactly when their
/// signatures are and their numbers read alike.
struct Shape {
  std::string signature;
  std::vector<Number> numbers;
  bool canonical = true;
  bool any_placeholder = false;
};

class ShapeBuilder {
 public:
  void literal(char c) {
    if (is_digit(c)) {
      if (after_placeholder_) shape_.canonical = false;
      if (digits_.empty()) close_piece();
      digits_.push_back(c);
    } else {
      end_digits();
      piece_.push_back(c);
    }
    after_placeholder_ = false;
  }
  void placeholder(long long offset) {
    if (!digits_.empty() || after_placeholder_ || offset < -1) shape_.canonical = false;
    end_digits();
    close_piece();
    shape_.numbers.push_back({true, offset, {}});
    shape_.any_placeholder = true;
    after_placeholder_ = true;
  }
  Shape finish() {
    end_digits();
    close_piece();
    return std::move(shape_);
  }

 private:
  void close_piece() {
    shape_.signature += std::to_string(piece_.size());
    shape_.signature += ':';
    shape_.signature += piece_;
    piece_.clear();
  }
  void end_digits() {
    if (digits_.empty()) return;
    shape_.numbers.push_back({false, 0, std::move(digits_)});
    digits_.clear();
  }

  Shape shape_;
  std::string piece_;
  std::string digits_;
  bool after_placeholder_ = false;
};

Shape shape_of_source(const NameSource& s) {
  ShapeBuilder b;
  for (std::size_t k = 0; k < s.parts.size(); ++k) {
    if (!s.templated[k]) {
      for (const char c : s.parts[k]) b.literal(c);
      continue;
    }
    for (const TemplatePiece& p : parse_template(s.parts[k])) {
      if (p.placeholder) {
        b.placeholder(p.offset);
      } else {
        for (const char c : p.text) b.literal(c);
      }
    }
  }
  return b.finish();
}

Shape shape_of_name(std::string_view name) {
  ShapeBuilder b;
  for (const char c : name) b.literal(c);
  return b.finish();
}

/// The value of a run of digits as a placeholder would print it (no leading zero), or -1.
long long printed_value(const std::string& digits) {
  if (digits.size() > 18 || (digits.size() > 1 && digits[0] == '0')) return -1;
  long long v = 0;
  for (const char c : digits) v = 10 * v + (c - '0');
  return v;
}

/// Member numbers a (of a family with count_a) and b that give equal names, for two shapes
/// with one signature; b is unused (0) when the second shape is a single name.
struct Match {
  long long a = 0;
  long long b = 0;
};

/// Solves "every number of x equals its counterpart in y" for the members a of x and b of y.
std::optional<Match> match(const Shape& x, long long count_a, const Shape& y, long long count_b) {
  std::optional<long long> a, b, difference;  // difference = a - b
  auto fix = [](std::optional<long long>& slot, long long v) {
    if (slot && *slot != v) return false;
    slot = v;
    return true;
  };
  for (std::size_t k = 0; k < x.numbers.size(); ++k) {
    const Number& p = x.numbers[k];
    const Number& q = y.numbers[k];
    bool ok = true;
    if (!p.placeholder && !q.placeholder) {
      ok = p.digits == q.digits;
    } else if (p.placeholder && !q.placeholder) {
      const long long v = printed_value(q.digits);
      ok = v >= 0 && fix(a, v - p.offset);
    } else if (!p.placeholder) {
      const long long v = printed_value(p.digits);
      ok = v >= 0 && fix(b, v - q.offset);
    } else {
      ok = fix(difference, q.offset - p.offset);
    }
    if (!ok) return std::nullopt;
  }
  if (!b)
    b = a && difference ? *a - *difference : (difference ? std::max(1LL, 1 - *difference) : 1);
  if (!a) a = *b + difference.value_or(0);
  if (difference && *a - *b != *difference) return std::nullopt;
  if (*a < 1 || *a > count_a || *b < 1 || *b > count_b) return std::nullopt;
  return Match{*a, *b};
}

/// One name: a source and a member number.
struct NameRef {
  std::size_t source = 0;
  std::size_t number = 1;
};

std::size_t position_of(std::span<const NameSource> sources, NameRef r) {
  const NameSource& s = sources[r.source];
  return s.position + (r.number - 1) * s.stride;
}

RepeatedName repeated(std::span<const NameSource> sources, NameRef x, NameRef y) {
  const std::size_t px = position_of(sources, x);
  const std::size_t py = position_of(sources, y);
  return {std::min(px, py), std::max(px, py), name_of(sources[x.source], x.number)};
}

/// Equal names among single ones: their hashes sorted, equal hashes compared by name.
std::optional<RepeatedName> repeat_among(std::span<const NameSource> sources,
                                         const std::vector<NameRef>& singles) {
  std::vector<std::pair<std::size_t, std::size_t>> hashed(singles.size());  // (hash, single)
  std::string name;
  for (std::size_t i = 0; i < singles.size(); ++i) {
    name.clear();
    name = name_of(sources[singles[i].source], singles[i].number);
    hashed[i] = {std::hash<std::string_view>{}(name), i};
  }
  std::sort(hashed.begin(), hashed.end());
  for (std::size_t i = 0; i + 1 < hashed.size(); ++i) {
    // Names with one hash sit side by side; compare each with the rest of its run.
    for (std::size_t j = i + 1; j < hashed.size() && hashed[j].first == hashed[i].first; ++j) {
      const NameRef a = singles[hashed[i].second];
      const NameRef b = singles[hashed[j].second];
      if (name_of(sources[a.source], a.number) == name_of(sources[b.source], b.number)) {
        return repeated(sources, a, b);
      }
    }
  }
  return std::nullopt;
}

/// A family of canonical shape with at least two members.
struct ShapedFamily {
  std::size_t source = 0;
  Shape shape;
};

/// Equal names within one family and between families of one signature.
std::optional<RepeatedName> repeat_among(std::span<const NameSource> sources,
                                         std::vector<ShapedFamily>& families) {
  std::sort(families.begin(), families.end(), [](const ShapedFamily& x, const ShapedFamily& y) {
    return x.shape.signature < y.shape.signature;
  });
  for (std::size_t i = 0; i < families.size(); ++i) {
    const ShapedFamily& f = families[i];
    if (!f.shape.any_placeholder) return repeated(sources, {f.source, 1}, {f.source, 2});
    const auto count_f = static_cast<long long>(sources[f.source].count);
    for (std::size_t j = i + 1;
         j < families.size() && families[j].shape.signature == f.shape.signature; ++j) {
      const ShapedFamily& g = families[j];
      const auto count_g = static_cast<long long>(sources[g.source].count);
      if (const auto m = match(f.shape, count_f, g.shape, count_g)) {
        return repeated(sources, {f.source, static_cast<std::size_t>(m->a)},
                        {g.source, static_cast<std::size_t>(m->b)});
      }
    }
  }
  return std::nullopt;
}

/// A single name that is also a member of a family: only single names whose signature some
/// family has are split into numbers.
std::optional<RepeatedName> repeat_between(std::span<const NameSource> sources,
                                           const std::vector<NameRef>& singles,
                                           const std::vector<ShapedFamily>& families) {
  if (families.empty()) return std::nullopt;
  std::vector<std::size_t> signatures;
  signatures.reserve(families.size());
  for (const ShapedFamily& f : families) {
    signatures.push_back(std::hash<std::string>{}(f.shape.signature));
  }
  std::sort(signatures.begin(), signatures.end());
  for (const NameRef& single : singles) {
    const std::string name = name_of(sources[single.source], single.number);
    const Shape shape = shape_of_name(name);
    if (!std::binary_search(signatures.begin(), signatures.end(),
                            std::hash<std::string>{}(shape.signature))) {
      continue;
    }
    for (const ShapedFamily& f : families) {
      if (f.shape.signature != shape.signature) continue;
      const auto count = static_cast<long long>(sources[f.source].count);
      if (const auto m = match(f.shape, count, shape, 1)) {
        return repeated(sources, {f.source, static_cast<std::size_t>(m->a)}, single);
      }
    }
  }
  return std::nullopt;
}

}  // namespace

std::string name_of(const NameSource& source, std::size_t number) {
  std::string out;
  for (std::size_t k = 0; k < source.parts.size(); ++k) {
    if (source.templated[k]) {
      append_expanded(source.parts[k], number, out);
    } else {
      out.append(source.parts[k]);
    }
  }
  return out;
}

std::optional<RepeatedName> find_repeat(std::span<const NameSource> sources) {
  std::vector<NameRef> singles;
  std::vector<ShapedFamily> families;
  for (std::size_t s = 0; s < sources.size(); ++s) {
    const NameSource& source = sources[s];
    if (source.count >= 2) {
      Shape shape = shape_of_source(source);
      if (shape.canonical) {
        families.push_back({s, std::move(shape)});
        continue;
      }
    }
    for (std::size_t k = 1; k <= source.count; ++k) singles.push_back({s, k});
  }
  if (auto r = repeat_among(sources, singles)) return r;
  if (auto r = repeat_among(sources, families)) return r;
  return repeat_between(sources, singles, families);
}

}  // namespace hdae::detail
