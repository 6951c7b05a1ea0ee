// Default arguments move to the client wrappers' declarations; named
// constants are qualified because the wrappers live at namespace scope.
// RUN: %pocxx --translate-only %s -o - | %nochecks | FileCheck %s
#include <string>
namespace ns {
class Cfg {
public:
  enum Mode { Fast, Slow };
  static constexpr int kDefault = 7;
  Cfg() = default;
  int get(int x = kDefault, Mode m = Slow, std::string s = "abc") const {
    return x + m + static_cast<int>(s.size());
  }
};
} // namespace ns
int main() {
  ns::Cfg *c = new ("m") ns::Cfg;
  int r = c->get() + c->get(1, ns::Cfg::Fast);
  // CHECK: static int get_0(const ::ns::Cfg *self, int x = ::ns::Cfg::kDefault, ::ns::Cfg::Mode m = ::ns::Cfg::Slow, ::std::string s = "abc");
  // CHECK: int r = ::poc_gen::ns_Cfg_client::get_0(c) + ::poc_gen::ns_Cfg_client::get_0(c, 1, ns::Cfg::Fast);
  delete c;
  return r;
}
